// Monthly adequacy per patient (domain.md 2.10, KDOQI 2006 HD adequacy guideline 2: measure the delivered dose at least
// monthly): the month's measurement is its latest representative session with a valid BUN pair (mid-week, not after the
// long interval; a short or interrupted session has no Kt/V, so never counts); a month without one is unmeasured.
import type { ClinicalPolicy } from './clinicalPolicy.js';
import type { DerivedValues } from './derivedValues.js';
import { roundTo } from './rounding.js';

export interface AdequacySession {
  patientId: string;
  /** Date of the session (YYYY-MM-DD); its first seven characters are the month. */
  date: string;
  /** Orders two sessions of one date (the start instant, ISO 8601); optional. */
  at?: string;
  /** Sessions a week of the prescription the session ran under; absent when unknown (judged as thrice weekly). */
  sessionsPerWeek?: number;
  derived: DerivedValues;
}

export interface MonthlyAdequacy {
  patientId: string;
  /** YYYY-MM. */
  month: string;
  sessions: number;
  /** Sessions with both BUNs recorded, valid or not. */
  sessionsWithBunPair: number;
  /** Whether some session of the month has a valid BUN pair (spKt/V computed). */
  measured: boolean;
  /** Date of the session whose pair is the month's measurement. */
  measuredOn: string | null;
  spKtV: number | null;
  urrPercent: number | null;
  eKtV: number | null;
  /** Weekly stdKt/V and nPCR of the measurement session (issue 21 item 5). */
  stdKtV: number | null;
  nPcrGKgDay: number | null;
  /** What the month is judged by: spKt/V thrice weekly (KDOQI 2006), stdKt/V on any other schedule (KDOQI 2015). */
  judgedBy: 'spKtV' | 'stdKtV';
  /** Means over the month's sessions with a valid pair. */
  spKtVMean: number | null;
  urrPercentMean: number | null;
  /** The measure judged by against its minimum and target (spKt/V: the policy's; stdKt/V: 2.1 and 2.3); null when unmeasured. */
  belowMinimum: boolean | null;
  belowTarget: boolean | null;
  urrBelowMinimum: boolean | null;
  /** Means over the month's sessions that have the value. */
  ufRateMeanMlKgH: number | null;
  idwgMeanKg: number | null;
}

/** Both BUNs were recorded: URR is a number, or was refused only because post was not below pre. */
export const hasBunPair = (d: DerivedValues): boolean => d.urrPercent !== null || d.notComputed.urrPercent === 'post-bun-not-below-pre';

function mean(values: readonly (number | null)[], decimals: number): number | null {
  const present = values.filter((v): v is number => v !== null);
  return present.length === 0 ? null : roundTo(present.reduce((sum, v) => sum + v, 0) / present.length, decimals);
}

const valuesOf = (sessions: readonly AdequacySession[], name: 'spKtV' | 'urrPercent' | 'ufRateMlKgH' | 'idwgKg') =>
  sessions.map((s) => s.derived[name]);

const chronological = (a: AdequacySession, b: AdequacySession): number =>
  a.date.localeCompare(b.date) || (a.at ?? '').localeCompare(b.at ?? '');

const MID_WEEK_DAYS = new Set([3, 4]);

/**
 * The month's measurement among its sessions with a Kt/V: KDOQI 2006 (HD adequacy, CPR 2) draws the BUN pair at a
 * mid-week session, so the latest Wednesday or Thursday session not after the long interval; else the latest not after
 * it; else the latest.
 */
function representative(paired: readonly AdequacySession[]): AdequacySession | undefined {
  const notAfterLong = paired.filter((s) => s.derived.longInterval !== true);
  const midWeek = notAfterLong.filter((s) => MID_WEEK_DAYS.has(new Date(`${s.date}T00:00:00Z`).getUTCDay()));
  return (midWeek.length > 0 ? midWeek : notAfterLong.length > 0 ? notAfterLong : paired).at(-1);
}

/** One row per patient and month that has sessions, ordered by patient then month. */
export function monthlyAdequacy(sessions: readonly AdequacySession[], policy: ClinicalPolicy): MonthlyAdequacy[] {
  const groups = new Map<string, AdequacySession[]>();
  for (const session of [...sessions].sort(chronological)) {
    const key = `${session.patientId}\u0000${session.date.slice(0, 7)}`;
    const group = groups.get(key);
    if (group) group.push(session);
    else groups.set(key, [session]);
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, month]) => monthOf(month, policy));
}

function monthOf(sessions: AdequacySession[], policy: ClinicalPolicy): MonthlyAdequacy {
  const first = sessions[0]!;
  const paired = sessions.filter((s) => s.derived.spKtV !== null);
  const latest = representative(paired);
  const spKtV = latest?.derived.spKtV ?? null;
  const urrPercent = latest?.derived.urrPercent ?? null;
  const stdKtV = latest?.derived.stdKtV ?? null;
  const perWeek = latest?.sessionsPerWeek ?? first.sessionsPerWeek;
  const judgedBy = perWeek === undefined || perWeek === 3 ? 'spKtV' : 'stdKtV';
  const [judged, minimum, target] =
    judgedBy === 'spKtV' ? [spKtV, policy.ktvMinimum, policy.ktvTarget] : [stdKtV, policy.stdKtVMinimum, policy.stdKtVTarget];
  return {
    patientId: first.patientId,
    month: first.date.slice(0, 7),
    sessions: sessions.length,
    sessionsWithBunPair: sessions.filter((s) => hasBunPair(s.derived)).length,
    measured: latest !== undefined,
    measuredOn: latest?.date ?? null,
    spKtV,
    urrPercent,
    eKtV: latest?.derived.eKtV ?? null,
    stdKtV,
    nPcrGKgDay: latest?.derived.nPcrGKgDay ?? null,
    judgedBy,
    spKtVMean: mean(valuesOf(paired, 'spKtV'), 2),
    urrPercentMean: mean(valuesOf(paired, 'urrPercent'), 1),
    belowMinimum: judged === null ? null : judged < minimum,
    belowTarget: judged === null ? null : judged < target,
    urrBelowMinimum: urrPercent === null ? null : urrPercent < policy.urrMinimumPercent,
    ufRateMeanMlKgH: mean(valuesOf(sessions, 'ufRateMlKgH'), 1),
    idwgMeanKg: mean(valuesOf(sessions, 'idwgKg'), 1),
  };
}
