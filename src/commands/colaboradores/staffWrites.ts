// Commands on staff records as the routes run them: the staff stream, the job position it names (loaded here, its
// facts handed to the decider), and the guards that keep a document and a linked user unique within the company; a
// linked user must be a member of the company (an injected loader, src/facts/empresas/: the memberships model).
import { handleCommand, loadAggregate, PreconditionFailedError, type CommandContext, type CommandResult } from '../handleCommand.js';
import { DomainError, notFound } from '../decider.js';
import type { FactLoaders } from '../factLoaders.js';
import { newId, uuidV5 } from '../eventIds.js';
import { uniqueClaimDecider } from '../uniqueClaim.js';
import { releaseClaim, withClaims, type UniqueGuard } from '../uniqueClaimWrites.js';
import { jobPositionDecider } from '../cargos-laborales/jobPositionDecider.js';
import { LIMITS } from '../../limits.js';
import { streamName, type EventStore } from '../../stores/eventStore.js';
import { staffDecider } from './staffDecider.js';
import type { HireStaffData, StaffCommand } from './staffEvents.js';
import type { StaffState } from './staffState.js';
import { staffDocumentKey, type IsoDate, type PositionFacts, type StaffPatch } from './staffTypes.js';

const guard = (category: string, code: string, message: string, keyOf: (s: StaffState) => string | null): UniqueGuard => ({
  decider: uniqueClaimDecider(category, code, message),
  duplicateCode: code,
  holderCategory: staffDecider.category,
  graceSeconds: LIMITS.uniqueClaims.orphanedClaimGraceSeconds,
  async heldKey(events, tenantId, holderId) {
    return keyOf((await loadAggregate(events, staffDecider, streamName(tenantId, staffDecider.category, holderId))).state);
  },
});
export const STAFF_DOCUMENT_GUARD = guard(
  'staffDocument',
  'duplicate-document',
  'another staff member of this company has this document',
  (s) => (s.personal ? staffDocumentKey(s.personal.document) : null),
);
export const STAFF_USER_GUARD = guard(
  'staffUser',
  'user-already-linked',
  'this user is already linked to another staff record of this company',
  (s) => s.userId,
);

const documentClaim = (staffId: string, document: HireStaffData['document']) => ({
  guard: STAFF_DOCUMENT_GUARD,
  claim: { holderId: staffId, key: staffDocumentKey(document) },
});
const userClaim = (staffId: string, userId: string) => ({ guard: STAFF_USER_GUARD, claim: { holderId: staffId, key: userId } });

/** A retried hire (same Idempotency-Key) targets the same staff id; otherwise a fresh one. */
const newStaffId = (idempotencyKey: string | null | undefined): string =>
  idempotencyKey ? uuidV5(`staff\u0000${idempotencyKey}`) : newId();

/** What the company's job position `positionId` is (null: none in this company; streams are per company). */
export async function positionFacts(events: EventStore, tenantId: string, positionId: string): Promise<PositionFacts> {
  const { state } = await loadAggregate(events, jobPositionDecider, streamName(tenantId, jobPositionDecider.category, positionId));
  if (!state.exists || !state.fields) return null;
  return { status: state.status, clinical: state.fields.clinical, licenceRequired: state.fields.licenceRequired };
}

const commandAt = (ctx: CommandContext) => ({ at: ctx.at ?? new Date().toISOString(), actor: ctx.actor, tenantId: ctx.tenantId });

/** A hire and a user link need the event store and the company's members (wired in server.ts), not the whole AppServices. */
export interface StaffDeps {
  events: EventStore;
  facts: Pick<FactLoaders, 'isMember'>;
}

/** A staff record links only to a member of its own company: anyone else answers 422 naming userId. */
async function mustBeMember(deps: StaffDeps, tenantId: string, userId: string): Promise<void> {
  if (await deps.facts.isMember(userId, tenantId)) return;
  const detail = 'userId must be a user account that belongs to this company';
  throw new DomainError('validation-failed', detail, 422, { errors: [{ field: 'userId', message: detail }] });
}

export async function hireStaff(
  deps: StaffDeps,
  ctx: CommandContext,
  data: Omit<HireStaffData, 'position'>,
): Promise<{ staffId: string; result: CommandResult<StaffState> }> {
  const { events } = deps;
  if (data.userId) await mustBeMember(deps, ctx.tenantId, data.userId);
  const staffId = newStaffId(ctx.idempotencyKey);
  const position = await positionFacts(events, ctx.tenantId, data.positionId);
  const command = { type: 'HireStaff' as const, aggregateId: staffId, data: { ...data, position } };
  // Check the data first (pure), so a refused hire never holds a document or a user.
  staffDecider.decide({ ...command, ...commandAt(ctx) }, staffDecider.initialState);
  const claims = [documentClaim(staffId, data.document), ...(data.userId ? [userClaim(staffId, data.userId)] : [])];
  const result = await withClaims(events, ctx, claims, () =>
    handleCommand(events, staffDecider, command, ctx, { expectNew: true, assumeNew: true }),
  );
  return { staffId, result };
}

async function loadStaff(
  events: EventStore,
  ctx: CommandContext,
  staffId: string,
  ifMatch: number | null,
  before?: (revision: number) => Promise<void>,
) {
  const loaded = await loadAggregate(events, staffDecider, streamName(ctx.tenantId, staffDecider.category, staffId));
  await before?.(loaded.revision);
  if (!loaded.state.exists || !loaded.state.personal) throw notFound('staff member');
  if (ifMatch !== null && ifMatch !== loaded.revision) throw new PreconditionFailedError(ifMatch, loaded.revision);
  return loaded.state as StaffState & { personal: NonNullable<StaffState['personal']> };
}

/** A correction; when it changes the document, the new one is claimed first and the old one released after. */
export async function correctStaff(
  events: EventStore,
  ctx: CommandContext,
  staffId: string,
  patch: StaffPatch,
  ifMatch: number,
): Promise<CommandResult<StaffState>> {
  const command = { type: 'CorrectStaffData' as const, aggregateId: staffId, data: patch };
  const state = await loadStaff(events, ctx, staffId, ifMatch);
  const before = state.personal.document;
  const after = patch.document ?? before;
  if (staffDocumentKey(after) === staffDocumentKey(before)) return handleCommand(events, staffDecider, command, ctx, { ifMatch });
  const result = await withClaims(events, ctx, [documentClaim(staffId, after)], () =>
    handleCommand(events, staffDecider, command, ctx, { ifMatch }),
  );
  await releaseClaim(events, ctx, STAFF_DOCUMENT_GUARD, documentClaim(staffId, before).claim);
  return result;
}

/** Links the record to a user account: the user is claimed first; a previous link is released after. */
export async function linkStaffToUser(
  deps: StaffDeps,
  ctx: CommandContext,
  staffId: string,
  userId: string,
  ifMatch: number | null,
): Promise<CommandResult<StaffState>> {
  const { events } = deps;
  const state = await loadStaff(events, ctx, staffId, ifMatch, async (revision) => {
    // Another company's record answers 404 before anything in the body is judged.
    if (revision === -1) throw new DomainError('not-found', 'Staff member not found', 404);
    await mustBeMember(deps, ctx.tenantId, userId);
  });
  const command = { type: 'LinkStaffToUser' as const, aggregateId: staffId, data: { userId } };
  if (state.userId === userId) return handleCommand(events, staffDecider, command, ctx, { ifMatch });
  // The decider refuses a terminated record before anything is claimed.
  staffDecider.decide({ ...command, ...commandAt(ctx) }, state);
  const result = await withClaims(events, ctx, [userClaim(staffId, userId)], () =>
    handleCommand(events, staffDecider, command, ctx, { ifMatch }),
  );
  if (state.userId) await releaseClaim(events, ctx, STAFF_USER_GUARD, userClaim(staffId, state.userId).claim);
  return result;
}

export async function changeStaffPosition(
  events: EventStore,
  ctx: CommandContext,
  staffId: string,
  data: { positionId: string; effectiveDate?: IsoDate },
  ifMatch: number | null,
): Promise<CommandResult<StaffState>> {
  const position = await positionFacts(events, ctx.tenantId, data.positionId);
  return handleCommand(events, staffDecider, { type: 'ChangeStaffPosition', aggregateId: staffId, data: { ...data, position } }, ctx, {
    ifMatch,
  });
}

/** A terminated staff member comes back (same record, document and user link), in their last position unless told. */
export async function rehireStaff(
  events: EventStore,
  ctx: CommandContext,
  staffId: string,
  data: { hireDate: IsoDate; positionId?: string; reason: string },
  ifMatch: number | null,
): Promise<CommandResult<StaffState>> {
  const state = await loadStaff(events, ctx, staffId, ifMatch);
  const positionId = data.positionId ?? state.positionId!;
  const position = await positionFacts(events, ctx.tenantId, positionId);
  const command = { type: 'RehireStaff' as const, aggregateId: staffId, data: { ...data, positionId, position } };
  return handleCommand(events, staffDecider, command, ctx, { ifMatch });
}

type PlainCommand = Extract<
  StaffCommand,
  { type: 'RegisterStaffLicence' | 'RecordStaffSerology' | 'RecordStaffVaccination' | 'TerminateStaff' }
>;

export function staffCommand<T extends PlainCommand['type']>(
  events: EventStore,
  ctx: CommandContext,
  staffId: string,
  type: T,
  data: Extract<PlainCommand, { type: T }>['data'],
  ifMatch: number | null,
): Promise<CommandResult<StaffState>> {
  return handleCommand(events, staffDecider, { type, aggregateId: staffId, data }, ctx, {
    ifMatch,
  });
}
