// Which registered client pays for a patient on a date: the patient's coverages (Pacientes) folded from its events.
import type { PatientEvent } from '../pacientes/patientEvents.js';
import type { CoverageEntry } from '../pacientes/patientTypes.js';

type Coverage = Pick<CoverageEntry, 'coverageId' | 'clientId' | 'validFrom' | 'validTo'>;

/** Coverages of the patient as its history leaves them (an ended coverage's last day is its end date). */
export function coveragesOf(events: readonly PatientEvent[]): Coverage[] {
  const byId = new Map<string, Coverage>();
  const add = (c: CoverageEntry) => byId.set(c.coverageId, c);
  for (const e of events) {
    if (e.type === 'PatientRegistered') e.data.coverages.forEach(add);
    else if (e.type === 'CoverageAdded') add(e.data);
    else if (e.type === 'CoverageEnded') {
      const c = byId.get(e.data.coverageId);
      if (c) byId.set(c.coverageId, { ...c, validTo: e.data.endDate });
    }
  }
  return [...byId.values()];
}

/** The client of the coverage valid on `date` that names a registered client (the most recent when several). */
export function coverageClientOn(coverages: readonly Coverage[], date: string): string | null {
  const valid = coverages
    .filter((c) => c.clientId && c.validFrom <= date && (c.validTo === undefined || date <= c.validTo))
    .sort((a, b) => b.validFrom.localeCompare(a.validFrom));
  return valid[0]?.clientId ?? null;
}
