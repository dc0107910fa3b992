// The derived clinical values and flags of a session read model (issue 10 item 6), from the pure clinical functions:
// computed when read, so a correction or a policy change shows at once and nothing stale is stored.
import { clinicalFlags, type ClinicalFlag } from '../../commands/dialisis/shared/clinicalFlags.js';
import type { ClinicalPolicy } from '../../commands/dialisis/shared/clinicalPolicy.js';
import { derivedValues, netWeightKg, type DerivedValues } from '../../commands/dialisis/shared/derivedValues.js';
import type { VascularAccessKind } from '../../commands/dialisis/shared/ureaKinetics.js';
import type { AccessType } from '../../commands/pacientes/patientTypes.js';
import type { SessionDoc } from './sessionDoc.js';

export interface SessionClinical {
  derived: DerivedValues;
  flags: ClinicalFlag[];
  /** Set when these are the values judged at signing (or the last amendment), kept whatever changes since. */
  judgedAt?: string;
  policyRevision?: number;
}

/** The previous session as the IDWG needs it: its net post-weight and when it ended. */
export interface PreviousSession {
  netPostWeightKg: number | null;
  endedAt: string | null;
}

const HOUR_MS = 3_600_000;

/** Hours from the previous session's end to this one's start (or arrival, before the start); null when unknown. */
export function interdialyticHoursOf(doc: Pick<SessionDoc, 'startedAt' | 'checkedInAt'>, previous: PreviousSession | null): number | null {
  const begins = doc.startedAt ?? doc.checkedInAt;
  if (!previous?.endedAt || !begins) return null;
  return (Date.parse(begins) - Date.parse(previous.endedAt)) / HOUR_MS;
}

const ACCESS_KINDS: Record<AccessType, VascularAccessKind> = {
  AVF: 'fistula',
  AVG: 'graft',
  tunneledCVC: 'catheter',
  nonTunneledCVC: 'catheter',
};

/** The kinetics' access kind of a patient's access type (eKt/V differs for catheters); null when unknown. */
export const accessKindOf = (type: string | null | undefined): VascularAccessKind | null =>
  type ? (ACCESS_KINDS[type as AccessType] ?? null) : null;

/** The net post-weight of a session (what the next session's IDWG starts from), or null without a post block. */
export const netPostWeightOf = (doc: Pick<SessionDoc, 'post'>): number | null => (doc.post ? netWeightKg(doc.post) : null);

export function sessionClinical(
  doc: SessionDoc,
  facts: { previousNetPostWeightKg: number | null; accessKind: VascularAccessKind | null; interdialyticHours?: number | null },
  policy: ClinicalPolicy,
): SessionClinical {
  const derived = derivedValues({
    interrupted: doc.status === 'interrupted' || doc.interruption !== null,
    interdialyticHours: facts.interdialyticHours ?? null,
    plausibility: { kineticsMinimumMinutes: policy.kineticsMinimumMinutes, idwgWindowDays: policy.idwgWindowDays },
    prescription: doc.prescription,
    pre: doc.pre,
    post: doc.post,
    previousNetPostWeightKg: facts.previousNetPostWeightKg,
    effectiveMinutes: doc.effectiveMinutes,
    accessKind: facts.accessKind,
  });
  const flags = clinicalFlags(
    {
      prescription: doc.prescription,
      pre: doc.pre,
      post: doc.post,
      readings: doc.readings,
      effectiveMinutes: doc.effectiveMinutes,
      derived,
      lostMinutes: doc.interruption?.lostMinutes ?? null,
    },
    policy,
  );
  return { derived, flags };
}
