// What the clinical quality widgets count of one signed session, from the values and flags it was judged with (the
// thresholds of the company policy in force then are in the flags): its alerts and its adequacy measurement.
import type { JudgedClinical } from '../../commands/dialisis/session/sessionEvents.js';
import { ALERTING_FLAGS } from '../../commands/dialisis/shared/alertRules.js';

export { ALERTING_FLAGS };

export type Judged = JudgedClinical;

/** One alert of a session: `key` tells two alerts of one session apart (a refused consequence per item). */
export interface AlertEntry {
  key: string;
  kind: string;
  value: number | null;
  threshold: number | null;
  detail: string;
}

/** A measured session (a valid BUN pair): its spKt/V and URR, and whether the judgement found it at target. */
export interface Measurement {
  spKtV: number;
  urrPercent: number | null;
  atTarget: boolean;
}

/** Below minimum by the judgement: the session is not at target. */
const BELOW_TARGET = new Set(['ktv-below-minimum', 'stdktv-below-minimum', 'urr-below-minimum']);

/** Every alert kind, in the order a dashboard lists them. */
export const ALERT_KINDS = [...ALERTING_FLAGS, 'idwg-high', 'consequence-refused', 'missed-sessions'] as const;
/** The fluid outliers among them. */
export const FLUID_KINDS = ['idwg-high', 'uf-rate-above-maximum'] as const;

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

const DETAILS: Record<string, string> = {
  'uf-rate-above-maximum': 'UF rate {v} mL/kg/h above the maximum {t}',
  'ktv-below-minimum': 'spKt/V {v} below the minimum {t}',
  'stdktv-below-minimum': 'stdKt/V {v} below the minimum {t}',
  'urr-below-minimum': 'URR {v} % below the minimum {t} %',
  'idwg-high': 'Interdialytic weight gain {v} % of the dry weight, above {t} %',
};

export const detailOf = (kind: string, value: number | null, threshold: number | null): string =>
  (DETAILS[kind] ?? kind).replace('{v}', String(value)).replace('{t}', String(threshold));

/** The alerts a judgement raises: its alerting flags, and an IDWG above `idwgPercent` of the dry weight. */
export function alertsOfJudgement(judged: Judged, idwgPercent: number): AlertEntry[] {
  const alerts: AlertEntry[] = [];
  for (const flag of judged.flags) {
    const kind = flag.code as string;
    if (!ALERTING_FLAGS.includes(kind)) continue;
    const value = num(flag.value);
    const threshold = num(flag.threshold);
    alerts.push({ key: kind, kind, value, threshold, detail: detailOf(kind, value, threshold) });
  }
  const idwg = num(judged.derived.idwgPercentOfDryWeight);
  if (idwg !== null && idwg > idwgPercent)
    alerts.push({
      key: 'idwg-high',
      kind: 'idwg-high',
      value: idwg,
      threshold: idwgPercent,
      detail: detailOf('idwg-high', idwg, idwgPercent),
    });
  return alerts;
}

/** The session's measurement, or null without a spKt/V (no valid BUN pair, a short or interrupted session). */
export function measurementOf(judged: Judged): Measurement | null {
  const spKtV = num(judged.derived.spKtV);
  if (spKtV === null) return null;
  const atTarget = !judged.flags.some((flag) => BELOW_TARGET.has(flag.code as string));
  return { spKtV, urrPercent: num(judged.derived.urrPercent), atTarget };
}

/** Histogram buckets: lower bounds (the first bucket is everything below the second's bound). */
export interface Buckets {
  key: string;
  lower: readonly number[];
  labels: readonly string[];
}

const buckets = (key: string, from: number, width: number, count: number, decimals: number, unit = ''): Buckets => {
  const bounds = Array.from({ length: count - 1 }, (_, i) => Math.round((from + i * width) * 10 ** decimals) / 10 ** decimals);
  const shown = (x: number) => x.toFixed(decimals);
  const middle = bounds.slice(0, -1).map((b, i) => `${shown(b)}-${shown(bounds[i + 1]!)}${unit}`);
  const labels = [`< ${shown(bounds[0]!)}${unit}`, ...middle, `>= ${shown(bounds.at(-1)!)}${unit}`];
  return { key, lower: [-Infinity, ...bounds], labels };
};

/** spKt/V 0.2 wide from < 1.0 to >= 2.0. */
export const KTV_BUCKETS = buckets('spKtV', 1.0, 0.2, 7, 1);
/** URR 5 % wide from < 55 % to >= 80 %. */
export const URR_BUCKETS = buckets('urrPercent', 55, 5, 7, 0, ' %');

/** The bucket a value falls in (values are rounded as shown: 1.2 is in 1.2-1.4). */
export function bucketOf(b: Buckets, value: number): number {
  let index = 0;
  for (let i = 1; i < b.lower.length; i++) if (value >= b.lower[i]! - 1e-9) index = i;
  return index;
}
