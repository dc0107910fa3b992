// Commands on patients as the routes run them: the patient stream plus, for registration and document
// corrections, the document guard stream that keeps identity documents unique within the company.
import { handleCommand, loadAggregate, PreconditionFailedError, type CommandContext, type CommandResult } from '../handleCommand.js';
import type { PatientCommand, RegisterPatientData } from './patientCommands.js';
import { patientDecider } from './patientDecider.js';
import { documentKey, patientDocumentDecider, type HolderFacts } from './patientDocument.js';
import type { PatientState } from './patientState.js';
import type { DemographicsPatch, DocumentType } from './patientTypes.js';
import { decideUpFront, DomainError, notFound } from '../decider.js';
import { LIMITS } from '../../limits.js';
import { streamName, type EventStore } from '../../stores/eventStore.js';
import { newId, uuidV5 } from '../eventIds.js';

/** Id of the guard stream of one document in one company. */
export const documentGuardId = (tenantId: string, type: DocumentType, number: string): string =>
  uuidV5(`patientDocument\u0000${tenantId}\u0000${documentKey(type, number)}`);

/** A retried registration (same Idempotency-Key) targets the same patient id; otherwise a fresh one. */
export const newPatientId = (idempotencyKey: string | null | undefined): string =>
  idempotencyKey ? uuidV5(`patient\u0000${idempotencyKey}`) : newId();

type Guarded = { patientId: string; documentType: DocumentType; documentNumber: string };

/**
 * Claims the document for the patient; true when this call claimed it (false: the patient already held it).
 * A claim held by a patient that never appeared (a registration that crashed between claim and append) is taken
 * over once it is older than the grace period: the guard's decider decides, given what the holder's stream shows.
 */
async function claimDocument(events: EventStore, ctx: CommandContext, g: Guarded, assumeNew = false): Promise<boolean> {
  const claim = (holder?: HolderFacts) =>
    handleCommand(
      events,
      patientDocumentDecider,
      {
        type: 'ClaimPatientDocument',
        aggregateId: documentGuardId(ctx.tenantId, g.documentType, g.documentNumber),
        data: { ...g, ...(holder ? { holder } : {}) },
      },
      ctx,
      { assumeNew: assumeNew && !holder },
    );
  let result;
  try {
    result = await claim();
  } catch (err) {
    const holderId = err instanceof DomainError && err.code === 'duplicate-document' ? err.details?.existingPatientId : undefined;
    if (typeof holderId !== 'string') throw err;
    const holderEvents = await events.readStream(streamName(ctx.tenantId, patientDecider.category, holderId), { maxCount: 1 });
    if (holderEvents.length > 0) throw err;
    result = await claim({ exists: false, graceSeconds: LIMITS.documentGuard.orphanedClaimGraceSeconds });
  }
  return result.events.some((e) => e.type === 'PatientDocumentClaimed');
}

async function releaseDocument(events: EventStore, ctx: CommandContext, g: Guarded): Promise<void> {
  await handleCommand(
    events,
    patientDocumentDecider,
    {
      type: 'ReleasePatientDocument',
      aggregateId: documentGuardId(ctx.tenantId, g.documentType, g.documentNumber),
      data: { patientId: g.patientId },
    },
    { ...ctx, idempotencyKey: null },
  );
}

/** Runs `work` after claiming the document; gives the document back when `work` fails. */
async function withDocument<T>(events: EventStore, ctx: CommandContext, g: Guarded, work: () => Promise<T>, assumeNew = false): Promise<T> {
  const claimed = await claimDocument(events, ctx, g, assumeNew);
  try {
    return await work();
  } catch (err) {
    if (claimed) await releaseDocument(events, ctx, g).catch(() => undefined);
    throw err;
  }
}

export async function registerPatient(
  events: EventStore,
  ctx: CommandContext,
  data: RegisterPatientData,
): Promise<{ patientId: string; result: CommandResult<PatientState> }> {
  const patientId = newPatientId(ctx.idempotencyKey);
  const command = { type: 'RegisterPatient' as const, aggregateId: patientId, data, at: ctx.at ?? new Date().toISOString() };
  // Decide first (pure), so a refused registration never holds a document; the append below reuses this decision.
  const decider = decideUpFront(patientDecider, { ...command, actor: ctx.actor, tenantId: ctx.tenantId });
  const guarded = { patientId, documentType: data.documentType, documentNumber: data.documentNumber };
  // Most documents were never claimed and the patient id is fresh: both commands first try without reading
  // their stream (the appends' expected revision still catches a claimed document or an existing id).
  const result = await withDocument(
    events,
    ctx,
    guarded,
    () => handleCommand(events, decider, command, ctx, { expectNew: true, assumeNew: true }),
    true,
  );
  return { patientId, result };
}

/** A correction; when it changes the document, the new one is claimed first and the old one released after. */
export async function correctPatient(
  events: EventStore,
  ctx: CommandContext,
  patientId: string,
  patch: DemographicsPatch,
  ifMatch: number,
): Promise<CommandResult<PatientState>> {
  const command = { type: 'CorrectPatientData' as const, aggregateId: patientId, data: patch };
  const { state, revision } = await loadAggregate(events, patientDecider, streamName(ctx.tenantId, 'patient', patientId));
  if (!state.exists || !state.demographics) throw notFound('patient');
  if (ifMatch !== revision) throw new PreconditionFailedError(ifMatch, revision);
  const before: Guarded = { patientId, documentType: state.demographics.documentType, documentNumber: state.demographics.documentNumber };
  const after: Guarded = {
    patientId,
    documentType: patch.documentType ?? before.documentType,
    documentNumber: patch.documentNumber ?? before.documentNumber,
  };
  const moves = documentKey(after.documentType, after.documentNumber) !== documentKey(before.documentType, before.documentNumber);
  if (!moves) return handleCommand(events, patientDecider, command, ctx, { ifMatch });
  const result = await withDocument(events, ctx, after, () => handleCommand(events, patientDecider, command, ctx, { ifMatch }));
  await releaseDocument(events, ctx, before);
  return result;
}

type OtherCommand = Exclude<PatientCommand, { type: 'RegisterPatient' | 'CorrectPatientData' }>;

export function patientCommand<T extends OtherCommand['type']>(
  events: EventStore,
  ctx: CommandContext,
  patientId: string,
  type: T,
  data: Extract<OtherCommand, { type: T }>['data'],
  ifMatch: number | null,
): Promise<CommandResult<PatientState>> {
  return handleCommand(events, patientDecider, { type, aggregateId: patientId, data }, ctx, { ifMatch });
}
