// Commands on a session as the routes run them: the session stream, and the facts other records hand the decider
// (who may sign, the step-up code, the company's editing window), from the loaders of sessionFacts.ts. Starting a
// session lives in sessionStartWrites.ts.
import { handleCommand, loadAggregate, PreconditionFailedError, type CommandContext, type CommandResult } from '../../handleCommand.js';
import { DomainError, notFound, rule } from '../../decider.js';
import { invalidFields } from '../../shared/fieldChecks.js';
import { newId, uuidV5 } from '../../eventIds.js';
import { confirmStepUp } from '../../platform/stepUpWrites.js';
import type { AppServices } from '../../../services.js';
import { sessionDecider } from './sessionDecider.js';
import type { PolicyFacts } from '../../empresas/shared/policySettings.js';
import type { AmendableBlock, SessionLimits, Signer } from './sessionEvents.js';
import { sessionStream } from './sessionEvents.js';
import type { SessionCommand } from './sessionCommands.js';
import type { SessionState } from './sessionState.js';
import type { LoadSessionCommandFacts, LoadSignFacts, SignFacts } from './sessionFacts.js';
import { releaseRunningSession, runningSinceAfter } from './runningSessionWrites.js';
import { endsBeforeMachineHolder } from './backEntryWrites.js';

export type SessionResult = CommandResult<SessionState>;
type Signed = 'SignSession' | 'ValidateSession' | 'AmendSession' | 'AddAddendum';
type Plain = Exclude<SessionCommand, { type: 'ScheduleSession' | 'StartSession' | Signed }>;
/** Commands that add an entry to the session: the company's clinical maximums go with them. */
type Bounded = 'RecordReading' | 'RecordComplication' | 'AdministerMedication' | 'PauseSession';
const BOUNDED: ReadonlySet<string> = new Set<Bounded>(['RecordReading', 'RecordComplication', 'AdministerMedication', 'PauseSession']);
/** Commands after which the patient has no running session: the start's claim on the patient is given back. */
const FREES_PATIENT: ReadonlySet<string> = new Set(['EndSession', 'InterruptSession']);
/** A command as a route builds it: the writes add the limits. */
export type PlainInput = { type: Plain['type']; data: unknown };

export async function sessionState(services: AppServices, tenantId: string, sessionId: string): Promise<SessionState> {
  const { state } = await loadAggregate(services.events, sessionDecider, sessionStream(tenantId, sessionId));
  if (!state.exists) throw notFound('session');
  return state;
}

/** What a session command is run with: its facts' loader, and the services its writes go through. */
export interface SessionDeps {
  services: AppServices;
  loadFacts: LoadSessionCommandFacts;
}

/** What a signed command is run with: its facts' loader, and the services the step-up code is spent through. */
export interface SignDeps {
  services: AppServices;
  loadFacts: LoadSignFacts;
}

/** The company's clinical maximums of a session, with the policy revision that set them. */
const limitsOf = ({ revision, settings }: PolicyFacts): SessionLimits => ({ revision, ...settings.sessionLimits });

/** Commands that need nothing but the session's own stream (and, for an entry, the company's maximums). */
export async function sessionCommand(
  deps: SessionDeps,
  ctx: CommandContext,
  sessionId: string,
  command: PlainInput,
  ifMatch: number | null,
): Promise<SessionResult> {
  const { services } = deps;
  const data = BOUNDED.has(command.type)
    ? { ...(command.data as object), limits: limitsOf(await deps.loadFacts(ctx.tenantId).policy()) }
    : command.data;
  if (FREES_PATIENT.has(command.type)) await endsBeforeRunningOne(services, ctx, sessionId, command);
  const bounded = { type: command.type, data, aggregateId: sessionId } as Plain & { aggregateId: string };
  const result = await handleCommand(services.events, sessionDecider, bounded, ctx, { ifMatch });
  // A crash before this leaves a claim of a session no longer running: the next start takes it over.
  if (FREES_PATIENT.has(command.type) && result.state.scheduled) {
    await releaseRunningSession(services, ctx, result.state.scheduled.patientId, sessionId, `session-${result.state.status}`);
  }
  return result;
}

/**
 * A session charted after the fact while another of the patient runs (issue 21 items 1 and 9) ends, as stated, before
 * that one began: the patient is never in two treatments at once (422 naming the instant).
 */
async function endsBeforeRunningOne(services: AppServices, ctx: CommandContext, sessionId: string, command: PlainInput): Promise<void> {
  const state = await sessionState(services, ctx.tenantId, sessionId);
  if (!state.scheduled || !state.startedAt || state.endedAt) return;
  const field = command.type === 'EndSession' ? 'endedAt' : 'interruptedAt';
  const stated = (command.data as Partial<Record<'endedAt' | 'interruptedAt', string>>)[field];
  // Nor is its machine's current patient on it at once (issue 21 item 1).
  await endsBeforeMachineHolder(services, ctx, sessionId, state, field, stated);
  const other = await runningSinceAfter(services, ctx.tenantId, state.scheduled.patientId, { sessionId, startedAt: state.startedAt });
  if (!other) return;
  const end = stated ?? ctx.at ?? services.now().toISOString();
  if (Date.parse(end) > Date.parse(other)) {
    throw invalidFields([{ field, message: `the patient's session running since ${other} began before this end: state an end before it` }]);
  }
}

/** A medication naming a product names one of the company's, after the session is found (another company's is 404). */
export async function administerMedication(
  deps: SessionDeps,
  ctx: CommandContext,
  sessionId: string,
  body: Record<string, unknown> & { medicationId: string },
  ifMatch: number | null,
): Promise<SessionResult> {
  await sessionState(deps.services, ctx.tenantId, sessionId);
  const productId = body.productId as string | undefined;
  const problems = [];
  if (productId === undefined && body.stockQuantity !== undefined) problems.push({ field: 'stockQuantity', message: 'needs productId' });
  if (productId !== undefined && !(await deps.loadFacts(ctx.tenantId).isCompanyProduct(productId))) {
    problems.push({ field: 'productId', message: 'no such product in this company' });
  }
  if (problems.length > 0) throw invalidFields(problems);
  return sessionCommand(deps, ctx, sessionId, { type: 'AdministerMedication', data: body }, ifMatch);
}

/** Id of an entry added to a session (a reading, a complication, a medication): a retried request reuses it. */
export const entryIdFor = (kind: string, sessionId: string, idempotencyKey: string | null | undefined): string =>
  idempotencyKey ? uuidV5(`${kind}\u0000${sessionId}\u0000${idempotencyKey}`) : newId();

/** Events of an API client name `client:<id>` as the actor: a program never signs nor changes a signed record. */
const isApiClient = (actor: string): boolean => actor.startsWith('client:');

/**
 * The person acting on the signed record: never an API client; a staff record allowed to sign clinical records now (a
 * physician's position for a physician's act); and a fresh authenticator code (step-up), spent last.
 */
async function signerOf(services: AppServices, ctx: CommandContext, code: string, facts: SignFacts): Promise<Signer> {
  const verdict = facts.signer;
  if (!verdict.allowed || !verdict.staffId) {
    throw rule('signer-may-not-sign', `you may not sign clinical records now: ${verdict.reasons.join(', ')}`, { reasons: verdict.reasons });
  }
  await confirmStepUp(services, ctx.actor, code, { ...ctx, actor: ctx.actor });
  return { userId: ctx.actor, staffId: verdict.staffId };
}

type SignedInput = { type: Signed; data: (signer: Signer, policy: PolicyFacts) => Record<string, unknown> };

/** A command that needs the signer: judged on the record first, so a refusal never spends the person's code. */
async function signedCommand(
  deps: SignDeps,
  ctx: CommandContext,
  sessionId: string,
  input: SignedInput & { code: string; physician: boolean },
  ifMatch: number | null,
): Promise<SessionResult> {
  const { services } = deps;
  if (isApiClient(ctx.actor)) {
    throw new DomainError('people-only', 'a signed clinical record is signed and changed by a person, never by an API client', 403);
  }
  // Whole: the values are judged on every event of the record, not on those after its latest snapshot.
  const { state, revision, events } = await loadAggregate(services.events, sessionDecider, sessionStream(ctx.tenantId, sessionId), {
    whole: true,
  });
  if (!state.exists) throw notFound('session');
  // A stale If-Match is answered before the code is spent, like any other refusal.
  if (ifMatch !== null && ifMatch !== revision) throw new PreconditionFailedError(ifMatch, revision);
  const at = ctx.at ?? services.now().toISOString();
  // The policy, the signer's standing and the judge, loaded once (sessionFacts.ts).
  const facts = await deps.loadFacts(ctx.tenantId, { actor: ctx.actor, at, act: input.physician ? 'physician' : 'clinical' });
  const probe = { type: input.type, data: input.data({ userId: ctx.actor, staffId: '' }, facts.policy), aggregateId: sessionId, at };
  const pending = sessionDecider.decide({ ...probe, actor: ctx.actor, tenantId: ctx.tenantId } as SessionCommand, state);
  // Signing and amending fix the values as judged on the record they leave (issue 21 item 3).
  const judges = input.type === 'SignSession' || input.type === 'AmendSession';
  const judged = judges ? { judged: await facts.judge(events, pending) } : {};
  const signer = await signerOf(services, ctx, input.code, facts);
  const data = { ...input.data(signer, facts.policy), ...judged };
  const command = { type: input.type, aggregateId: sessionId, data } as SessionCommand & { aggregateId: string };
  return handleCommand(services.events, sessionDecider, command, ctx, { ifMatch });
}

/** The nurse's sign-off (kind 'sign') or the physician's validation (kind 'validate': a physician's position). */
export function signSession(
  deps: SignDeps,
  ctx: CommandContext,
  sessionId: string,
  input: { kind: 'sign' | 'validate'; code: string },
  ifMatch: number | null,
): Promise<SessionResult> {
  const type = input.kind === 'sign' ? 'SignSession' : 'ValidateSession';
  const physician = input.kind === 'validate';
  return signedCommand(deps, ctx, sessionId, { type, data: (signer) => ({ signer }), code: input.code, physician }, ifMatch);
}

/** An amendment of a signed record: the editing window and the maximums of the company, by a person with a fresh code. */
export function amendSession(
  deps: SignDeps,
  ctx: CommandContext,
  sessionId: string,
  input: { block: AmendableBlock; changes: Record<string, unknown>; reason: string; code: string },
  ifMatch: number | null,
): Promise<SessionResult> {
  const { code, ...amendment } = input;
  const data = (by: Signer, { revision, settings }: PolicyFacts) => {
    const policy = { revision, signedEditWindowHours: settings.records.signedEditWindowHours };
    return { ...amendment, policy, limits: limitsOf({ revision, settings }), by };
  };
  return signedCommand(deps, ctx, sessionId, { type: 'AmendSession', data, code, physician: false }, ifMatch);
}

/** An addendum to a signed record, by a person with a clinical staff record and a fresh code. */
export function addAddendum(
  deps: SignDeps,
  ctx: CommandContext,
  sessionId: string,
  input: { text: string; reason: string; code: string },
  ifMatch: number | null,
): Promise<SessionResult> {
  const data = (by: Signer, policy: PolicyFacts) => ({ text: input.text, reason: input.reason, limits: limitsOf(policy), by });
  return signedCommand(deps, ctx, sessionId, { type: 'AddAddendum', data, code: input.code, physician: false }, ifMatch);
}
