// The session read model: one document per session with everything recorded (blocks, readings, complications,
// medications, signatures, amendments, addenda, the consequences of its end), folded from the session's stream and its
// consequence stream. Pure, shared by the projection and read-your-writes.
import type {
  AccessUsed,
  Complication,
  JudgedClinical,
  Equipment,
  Medication,
  PostDialysis,
  PreDialysis,
  PrescriptionSnapshot,
  Reading,
  SafetyChecks,
  SessionEvent,
  SessionKind,
  SessionStatus,
  Signer,
} from '../../commands/dialisis/session/sessionEvents.js';
import type { ConsequenceEvent } from '../../commands/dialisis/consequences/consequenceEvents.js';
import type { ProjectedDoc } from '../runner/projection.js';
import { tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';

type Stamp = { at: string; by: string };
export type Entry<T> = T & { recordedAt: string; recordedBy: string };
export type SignatureMark = { userId: string; staffId: string; at: string };

export type SessionDoc = ProjectedDoc & {
  /** Revision of the session stream (not of its consequence stream): the ETag. */
  revision: number;
  patientId: string;
  date: string;
  shiftId: string;
  locationId: string;
  kind: SessionKind;
  planId: string | null;
  reason: string | null;
  requestedBy: string | null;
  /** Why a session of a past date was charted after the fact. */
  lateEntryReason: string | null;
  /** Charted after the fact before its machine's present: its equipment's use counted as history (absent before). */
  backEntry?: boolean;
  status: SessionStatus;
  checkedInAt: string | null;
  startedAt: string | null;
  endedAt: string | null;
  effectiveMinutes: number | null;
  pauses: { pausedAt: string; reason: string; resumedAt: string | null }[];
  interruption: (Stamp & { reasonCode: string; note: string | null; complicationId?: string | null; lostMinutes?: number | null }) | null;
  cancellation: (Stamp & { reason: string }) | null;
  noShow: (Stamp & { note: string | null }) | null;
  equipment: Equipment | null;
  /** The vascular access used, as recorded at the start. */
  vascularAccess: AccessUsed | null;
  /** Machines changed mid-session, oldest first (absent on documents of before). */
  machineChanges?: (Stamp & { fromMachineId: string; machineId: string; reason: string; changedAt: string; minutesOnPrevious: number })[];
  prescription: PrescriptionSnapshot | null;
  /** The patient's dry weight in force on the session's date, as the start used it (absent on sessions of before). */
  dryWeight?: { dryWeightKg: number; effectiveDate: string } | null;
  startWarnings: string[];
  pre: PreDialysis | null;
  safetyChecks: SafetyChecks | null;
  post: PostDialysis | null;
  readings: Entry<Reading & { readingId: string }>[];
  complications: Entry<Complication & { complicationId: string }>[];
  medications: Entry<Medication & { medicationId: string }>[];
  nurseSignature: SignatureMark | null;
  physicianValidation: SignatureMark | null;
  /** The derived values and flags as judged at signing (or at the last amendment); null before signing. */
  judged: JudgedClinical | null;
  /** Validations an amendment withdrew (the record went back to awaiting validation), oldest first. */
  earlierValidations: SignatureMark[];
  amendments: (Stamp & {
    block: string;
    changes: Record<string, unknown>;
    previous: Record<string, unknown>;
    reason: string;
    amendedBy?: Signer;
    returnsToValidation?: true;
  })[];
  addenda: (Stamp & { text: string; reason: string; addedBy?: Signer })[];
  consequences: { kind: string; itemId: string; outcome: 'applied' | 'refused'; code: string | null; message: string | null; at: string }[];
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  updatedBy: string;
  /** Internal, for lists that leave the entries out: how many of each, and the refused consequences. */
  counts: { readings: number; complications: number; refusedConsequences: number };
};

/** The lists' sizes, kept beside them so a board reads the document without its entries. */
const withCounts = (doc: SessionDoc): SessionDoc => ({
  ...doc,
  counts: {
    readings: doc.readings.length,
    complications: doc.complications.length,
    refusedConsequences: doc.consequences.filter((c) => c.outcome === 'refused').length,
  },
});

export const CONSEQUENCE_EVENT_TYPES = ['ConsequenceApplied', 'ConsequenceRefused'] as const;

function scheduled(recorded: RecordedEvent, data: Extract<SessionEvent, { type: 'SessionScheduled' }>['data']): SessionDoc {
  const { occurredAt, actor } = recorded.metadata;
  return {
    tenantId: tenantOfStream(recorded.streamName),
    id: data.sessionId,
    _position: Number(recorded.position),
    revision: recorded.revision,
    patientId: data.patientId,
    date: data.date,
    shiftId: data.shiftId,
    locationId: data.locationId,
    kind: data.kind,
    planId: data.planId ?? null,
    reason: data.reason ?? null,
    requestedBy: data.requestedBy ?? null,
    lateEntryReason: data.lateEntryReason ?? null,
    status: 'scheduled',
    checkedInAt: null,
    startedAt: null,
    endedAt: null,
    effectiveMinutes: null,
    pauses: [],
    interruption: null,
    cancellation: null,
    noShow: null,
    equipment: null,
    vascularAccess: null,
    prescription: null,
    startWarnings: [],
    pre: null,
    safetyChecks: null,
    post: null,
    readings: [],
    complications: [],
    medications: [],
    nurseSignature: null,
    physicianValidation: null,
    judged: null,
    earlierValidations: [],
    amendments: [],
    addenda: [],
    consequences: [],
    createdAt: occurredAt,
    createdBy: actor,
    updatedAt: occurredAt,
    updatedBy: actor,
    counts: { readings: 0, complications: 0, refusedConsequences: 0 },
  };
}

const byTime = <T extends { at: string }>(items: T[]): T[] => [...items].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));

/** What one session event changes; `stamp` is who recorded it and when. */
function applySession(doc: SessionDoc, event: SessionEvent, stamp: Stamp): Partial<SessionDoc> {
  const entry = { recordedAt: stamp.at, recordedBy: stamp.by };
  switch (event.type) {
    case 'SessionScheduled':
      return {};
    case 'PatientCheckedIn':
      return { status: 'checked-in', checkedInAt: event.data.checkedInAt };
    case 'PreDialysisRecorded':
      return { pre: event.data };
    case 'SafetyChecksRecorded':
      return { safetyChecks: event.data };
    case 'SessionStarted': {
      const { startedAt, prescription, warnings, vascularAccess, dryWeight, backEntry, ...equipment } = event.data;
      const started = { vascularAccess: vascularAccess ?? null, dryWeight: dryWeight ?? null, backEntry: backEntry === true };
      return { status: 'in-progress', startedAt, prescription, equipment, startWarnings: warnings, ...started };
    }
    case 'SessionPaused':
      return { status: 'paused', pauses: [...doc.pauses, { pausedAt: event.data.pausedAt, reason: event.data.reason, resumedAt: null }] };
    case 'SessionResumed':
      return {
        status: 'in-progress',
        pauses: doc.pauses.map((p) => (p.resumedAt === null ? { ...p, resumedAt: event.data.resumedAt } : p)),
      };
    case 'ReadingRecorded':
      return { readings: byTime([...doc.readings, { ...event.data, ...entry }]) };
    case 'ComplicationRecorded':
      return { complications: byTime([...doc.complications, { ...event.data, ...entry }]) };
    case 'MedicationAdministered':
      return { medications: byTime([...doc.medications, { ...event.data, ...entry }]) };
    case 'SessionEnded':
      return { status: 'ended', endedAt: event.data.endedAt, effectiveMinutes: event.data.effectiveMinutes };
    case 'SessionInterrupted': {
      const { interruptedAt, reasonCode, note, effectiveMinutes, complicationId, lostMinutes } = event.data;
      return {
        status: 'interrupted',
        endedAt: interruptedAt,
        effectiveMinutes,
        interruption: {
          reasonCode,
          note: note ?? null,
          complicationId: complicationId ?? null,
          lostMinutes: lostMinutes ?? null,
          ...stamp,
        },
      };
    }
    case 'PostDialysisRecorded':
      return { post: event.data };
    case 'SessionCancelled':
      return { status: 'cancelled', cancellation: { reason: event.data.reason, ...stamp } };
    case 'SessionMarkedNoShow':
      return { status: 'no-show', noShow: { note: event.data.note ?? null, ...stamp } };
    case 'SessionSignedByNurse': {
      const { userId, staffId, signedAt, judged } = event.data;
      return { status: 'signed', nurseSignature: { userId, staffId, at: signedAt }, judged: judged ?? null };
    }
    case 'SessionValidatedByPhysician': {
      const { userId, staffId, validatedAt } = event.data;
      return { status: 'validated', physicianValidation: { userId, staffId, at: validatedAt } };
    }
    case 'SessionAmended': {
      const { block, changes, previous, reason, amendedBy, returnsToValidation, judged, effectiveMinutes, lostMinutes } = event.data;
      const amendment = { block, changes, previous, reason, ...(amendedBy ? { amendedBy } : {}), ...stamp };
      const amendments = [...doc.amendments, { ...amendment, ...(returnsToValidation ? { returnsToValidation } : {}) }];
      const rejudged = judged ? { judged } : {};
      // Corrected times change the record's instants and its treatment time; a block merges its changes.
      const changed =
        block === 'times'
          ? {
              ...(changes as Partial<Record<'startedAt' | 'endedAt', string>>),
              effectiveMinutes: effectiveMinutes ?? doc.effectiveMinutes,
              ...(lostMinutes !== undefined && doc.interruption ? { interruption: { ...doc.interruption, lostMinutes } } : {}),
            }
          : { [block]: { ...((doc[block] ?? {}) as Record<string, unknown>), ...changes } };
      const amended = { ...changed, amendments, ...rejudged };
      if (!returnsToValidation) return amended;
      // Back to awaiting validation: the withdrawn validation stays on the record, beside the amendment.
      const earlier = [...(doc.earlierValidations ?? []), ...(doc.physicianValidation ? [doc.physicianValidation] : [])];
      return { ...amended, status: 'signed', physicianValidation: null, earlierValidations: earlier };
    }
    case 'SessionAddendumRecorded': {
      const { text, reason, addedBy } = event.data;
      return { addenda: [...doc.addenda, { text, reason, ...(addedBy ? { addedBy } : {}), ...stamp }] };
    }
    case 'MachineChanged': {
      const { fromMachineId, machineId, stationId, reason, changedAt, minutesOnPrevious } = event.data;
      const equipment = doc.equipment ? { ...doc.equipment, machineId, ...(stationId ? { stationId } : {}) } : doc.equipment;
      const change = { fromMachineId, machineId, reason, changedAt, minutesOnPrevious, ...stamp };
      return { equipment, machineChanges: [...(doc.machineChanges ?? []), change] };
    }
  }
}

function applyConsequence(doc: SessionDoc, event: ConsequenceEvent, at: string): Partial<SessionDoc> {
  const { kind, itemId } = event.data;
  const refused = event.type === 'ConsequenceRefused';
  const outcome = {
    kind,
    itemId,
    outcome: refused ? ('refused' as const) : ('applied' as const),
    code: refused ? event.data.code : null,
    message: refused ? event.data.message : null,
    at,
  };
  return { consequences: [...doc.consequences, outcome] };
}

export function foldSession(doc: SessionDoc | null, recorded: RecordedEvent): SessionDoc | null {
  const stamp = { at: recorded.metadata.occurredAt, by: recorded.metadata.actor };
  const position = Number(recorded.position);
  if (recorded.type === 'ConsequenceApplied' || recorded.type === 'ConsequenceRefused') {
    if (!doc) return null;
    const event = { type: recorded.type, data: recorded.data } as unknown as ConsequenceEvent;
    return withCounts({ ...doc, ...applyConsequence(doc, event, stamp.at), _position: position });
  }
  const event = { type: recorded.type, data: recorded.data } as unknown as SessionEvent;
  if (event.type === 'SessionScheduled') return doc ?? scheduled(recorded, event.data);
  if (!doc) return null;
  return withCounts({
    ...doc,
    ...applySession(doc, event, stamp),
    revision: recorded.revision,
    updatedAt: stamp.at,
    updatedBy: stamp.by,
    _position: position,
  });
}
