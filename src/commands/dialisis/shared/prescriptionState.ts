// A patient's prescriptions as their history leaves them: every version with its effective period. Pure; the read model
// applies the same steps (supersede, discontinue) so both sides agree on which version is in force on a day.
import type { Discontinuation, Prescriber, PrescriptionEvent, PrescriptionFields } from '../prescription/prescriptionEvents.js';

export type PrescriptionVersion = PrescriptionFields & {
  version: number;
  supersedes: number | null;
  supersededBy: number | null;
  prescribedBy: Prescriber;
  issuedAt: string;
  /** Last day in force (inclusive): validTo, cut to the day before a successor's validFrom or a discontinuation; null = open. */
  effectiveTo: string | null;
  discontinued: Discontinuation | null;
};

export interface PrescriptionState {
  patientId: string | null;
  /** Oldest first; version n is at index n - 1. */
  versions: PrescriptionVersion[];
}

export const initialPrescriptionState: PrescriptionState = { patientId: null, versions: [] };

/** The calendar day before `date` (YYYY-MM-DD). */
export const dayBefore = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

const earlier = (a: string | null, b: string): string => (a !== null && a < b ? a : b);

/** The version before, once a successor takes over from `validFrom`: it ends the day before at the latest. */
export function supersede(previous: PrescriptionVersion, successor: { version: number; validFrom: string }): PrescriptionVersion {
  return { ...previous, supersededBy: successor.version, effectiveTo: earlier(previous.effectiveTo, dayBefore(successor.validFrom)) };
}

/** A version discontinued from `from`: no longer in force that day. */
export function discontinue(version: PrescriptionVersion, data: Discontinuation): PrescriptionVersion {
  const { from, reason, discontinuedAt, by } = data;
  const discontinued = { from, reason, discontinuedAt, ...(by ? { by } : {}) };
  return { ...version, discontinued, effectiveTo: earlier(version.effectiveTo, dayBefore(from)) };
}

/** A new version as its event states it (in force from validFrom through validTo, or open). */
export function issuedVersion(data: Extract<PrescriptionEvent, { type: 'PrescriptionIssued' }>['data']): PrescriptionVersion {
  const { patientId: _p, ...fields } = data;
  return { ...fields, supersededBy: null, effectiveTo: fields.validTo ?? null, discontinued: null };
}

export const inForceOn = (v: Pick<PrescriptionVersion, 'validFrom' | 'effectiveTo'>, date: string): boolean =>
  v.validFrom <= date && (v.effectiveTo === null || date <= v.effectiveTo);

/** The version in force on `date`, if any (effective periods never overlap). */
export const versionInForce = (state: PrescriptionState, date: string): PrescriptionVersion | null =>
  state.versions.find((v) => inForceOn(v, date)) ?? null;

export const latestVersion = (state: PrescriptionState): PrescriptionVersion | null => state.versions[state.versions.length - 1] ?? null;

export function evolvePrescription(state: PrescriptionState, event: PrescriptionEvent): PrescriptionState {
  switch (event.type) {
    case 'PrescriptionIssued': {
      const next = issuedVersion(event.data);
      const versions = state.versions.map((v) => (v.version === event.data.supersedes ? supersede(v, next) : v));
      return { patientId: event.data.patientId, versions: [...versions, next] };
    }
    case 'PrescriptionDiscontinued':
      return { ...state, versions: state.versions.map((v) => (v.version === event.data.version ? discontinue(v, event.data) : v)) };
    default:
      return state;
  }
}
