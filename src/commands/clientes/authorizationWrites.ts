// Commands on payer authorizations as the routes run them: issue (code unique per client, patient of the company),
// consume, release and void, each on the authorization's own stream and only through its client.
import { handleCommand, loadAggregate, type CommandContext, type CommandResult } from '../handleCommand.js';
import { notFound } from '../decider.js';
import { newId, uuidV5 } from '../eventIds.js';
import { uniqueClaimDecider } from '../uniqueClaim.js';
import { withClaims, type UniqueGuard } from '../uniqueClaimWrites.js';
import { patientDecider } from '../pacientes/patientDecider.js';
import type { PatientEvent } from '../pacientes/patientEvents.js';
import { LIMITS } from '../../limits.js';
import { streamName, type EventStore } from '../../stores/eventStore.js';
import { clientDecider } from './clientDecider.js';
import { authorizationDecider } from './authorizationDecider.js';
import { type AuthorizationState } from './shared/authorizationState.js';
import { authorizationCodeKey, type AuthorizationCommand, type AuthorizationTerms } from './authorizationEvents.js';
import { coveragesOf } from './payerCoverage.js';
import { periodsOverlap } from './shared/contractRules.js';

type Result = CommandResult<AuthorizationState>;
export const authorizationStream = (tenantId: string, id: string): string => streamName(tenantId, authorizationDecider.category, id);

const codeKey = (clientId: string, code: string): string => `${clientId}:${authorizationCodeKey(code)}`;

export const AUTHORIZATION_CODE_GUARD: UniqueGuard = {
  decider: uniqueClaimDecider(
    'payerAuthorizationCode',
    'duplicate-authorization-code',
    'this client already issued an authorization with this code',
  ),
  duplicateCode: 'duplicate-authorization-code',
  holderCategory: authorizationDecider.category,
  graceSeconds: LIMITS.uniqueClaims.orphanedClaimGraceSeconds,
  async heldKey(events: EventStore, tenantId: string, holderId: string) {
    const { state } = await loadAggregate(events, authorizationDecider, authorizationStream(tenantId, holderId));
    return state.terms ? codeKey(state.terms.clientId, state.terms.code) : null;
  },
};

export async function issueAuthorization(
  events: EventStore,
  ctx: CommandContext,
  clientId: string,
  data: Omit<AuthorizationTerms, 'clientId'>,
): Promise<{ authorizationId: string; result: Result }> {
  const patientStream = streamName(ctx.tenantId, 'patient', data.patientId);
  const [client, patient, patientEvents] = await Promise.all([
    loadAggregate(events, clientDecider, streamName(ctx.tenantId, clientDecider.category, clientId)),
    loadAggregate(events, patientDecider, patientStream),
    events.readStream(patientStream),
  ]);
  if (!client.state.fields) throw notFound('client');
  const authorizationId = ctx.idempotencyKey ? uuidV5(`payerAuthorization\u0000${ctx.idempotencyKey}`) : newId();
  // The payer authorizes only a patient it covers: a coverage by this client sharing a day with the period (issue 21).
  const coverages = coveragesOf(patientEvents as unknown as PatientEvent[]);
  const patientCovered = coverages.some(
    (c) => c.clientId === clientId && periodsOverlap(c.validFrom, c.validTo ?? null, data.validFrom, data.validTo),
  );
  const facts = { patientExists: patient.state.exists, clientActive: client.state.status === 'active', patientCovered };
  const command = { type: 'IssueAuthorization' as const, aggregateId: authorizationId, data: { ...data, clientId, facts } };
  // Checked first (pure), so a refused authorization never holds its code.
  authorizationDecider.decide(
    { ...command, at: ctx.at ?? new Date().toISOString(), actor: ctx.actor, tenantId: ctx.tenantId },
    authorizationDecider.initialState,
  );
  const claim = { holderId: authorizationId, key: codeKey(clientId, data.code) };
  const result = await withClaims(events, ctx, [{ guard: AUTHORIZATION_CODE_GUARD, claim }], () =>
    handleCommand(events, authorizationDecider, command, ctx, { expectNew: true, assumeNew: true }),
  );
  return { authorizationId, result };
}

type LaterCommand = Exclude<AuthorizationCommand, { type: 'IssueAuthorization' | 'ConsumeAuthorization' | 'ReserveAuthorization' }>;

/** Release or void an authorization of this client (another client's, or another company's, is absent). */
export async function authorizationCommand(
  events: EventStore,
  ctx: CommandContext,
  clientId: string,
  authorizationId: string,
  command: Pick<LaterCommand, 'type' | 'data'>,
  ifMatch: number | null,
): Promise<Result> {
  const { state } = await loadAggregate(events, authorizationDecider, authorizationStream(ctx.tenantId, authorizationId));
  if (state.terms?.clientId !== clientId) throw notFound('authorization');
  return handleCommand(events, authorizationDecider, { ...command, aggregateId: authorizationId }, ctx, { ifMatch });
}
