// Alerts of the floor (issue 10 item 8): UF rate above the company maximum, Kt/V or URR below the minimum, IDWG
// outliers, consequences the equipment refused, and missed sessions (three in a row: the payer is to be notified).
import { addDays } from '../../commands/shared/calendarDays.js';
import type { TenantScope } from '../tenantScope.js';
import { ALERTING_FLAGS, IDWG_ALERT_PERCENT, MISSED_IN_A_ROW } from '../../commands/dialisis/shared/alertRules.js';

export { IDWG_ALERT_PERCENT, MISSED_IN_A_ROW };
import type { SessionDoc } from '../../projections/dialisis/sessionDoc.js';
import { patientBriefs, type PatientBrief } from './sessions.js';
import { byPatient, sessionsBetween, treatedWithClinical, type RangeQuery } from './sessionRange.js';

/** How far before the range the missed-session runs are traced back. */
const MISSED_LOOKBACK_DAYS = 31;

const ALERTING = new Set(ALERTING_FLAGS);
/** What the missed-session runs read of a session (its order: date, start, id). */
const RUN_FIELDS: Record<string, 1> = { id: 1, patientId: 1, date: 1, startedAt: 1, status: 1 };

export interface Alert {
  kind: string;
  patient: PatientBrief | { id: string };
  date: string;
  sessionId: string | null;
  field: string | null;
  value: number | null;
  threshold: number | null;
  message: string;
  sessions: string[];
  notifyPayer: boolean;
}

type Draft = Omit<Alert, 'patient' | 'sessions' | 'notifyPayer'> & { patientId: string; sessions?: string[]; notifyPayer?: boolean };

function missedRuns(list: readonly SessionDoc[], from: string): Draft[] {
  const drafts: Draft[] = [];
  let run: SessionDoc[] = [];
  for (const doc of list) {
    if (doc.status === 'cancelled' || doc.status === 'scheduled') continue;
    if (doc.status !== 'no-show') {
      run = [];
      continue;
    }
    run.push(doc);
    // The run is reported once, on the session that makes it three; a longer run adds nothing new to notify.
    if (run.length === MISSED_IN_A_ROW && doc.date >= from) {
      drafts.push({
        kind: 'missed-sessions',
        patientId: doc.patientId,
        date: doc.date,
        sessionId: doc.id,
        field: null,
        value: MISSED_IN_A_ROW,
        threshold: MISSED_IN_A_ROW,
        message: `${MISSED_IN_A_ROW} consecutive missed sessions: notify the payer`,
        sessions: run.map((s) => s.id),
        notifyPayer: true,
      });
    }
  }
  return drafts;
}

export async function sessionAlerts(scope: TenantScope, query: RangeQuery): Promise<Alert[]> {
  const drafts: Draft[] = [];
  for (const { doc, clinical } of await treatedWithClinical(scope, query)) {
    const base = { patientId: doc.patientId, date: doc.date, sessionId: doc.id };
    for (const flag of clinical.flags.filter((f) => ALERTING.has(f.code))) {
      drafts.push({ ...base, kind: flag.code, field: flag.field, value: flag.value, threshold: flag.threshold, message: flag.code });
    }
    const idwg = clinical.derived.idwgPercentOfDryWeight;
    if (idwg !== null && idwg > IDWG_ALERT_PERCENT) {
      const message = `interdialytic weight gain ${idwg} % of the dry weight`;
      drafts.push({ ...base, kind: 'idwg-high', field: 'idwgPercentOfDryWeight', value: idwg, threshold: IDWG_ALERT_PERCENT, message });
    }
    for (const refused of doc.consequences.filter((c) => c.outcome === 'refused')) {
      const message = `${refused.kind} of ${refused.itemId} refused: ${refused.message ?? refused.code ?? ''}`;
      drafts.push({ ...base, kind: 'consequence-refused', field: refused.kind, value: null, threshold: null, message });
    }
  }
  // The runs need who, when and how each ended, not the readings: the store answers those fields alone.
  const traced = await sessionsBetween(scope, { ...query, from: addDays(query.from, -MISSED_LOOKBACK_DAYS) }, RUN_FIELDS);
  for (const list of byPatient(traced).values()) drafts.push(...missedRuns(list, query.from));
  const names = await patientBriefs(
    scope,
    drafts.map((d) => d.patientId),
  );
  drafts.sort((a, b) => a.date.localeCompare(b.date) || a.kind.localeCompare(b.kind));
  return drafts.map(({ patientId, sessions, notifyPayer, ...rest }) => ({
    ...rest,
    patient: names.get(patientId) ?? { id: patientId },
    sessions: sessions ?? (rest.sessionId ? [rest.sessionId] : []),
    notifyPayer: notifyPayer ?? false,
  }));
}
