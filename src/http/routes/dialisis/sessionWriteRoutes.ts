// /dialisis/sesiones/{id}/... writes along the session's life: check-in, pre block, safety checks, pause, readings,
// complications, medications, end, post block, interruption, the nurse's signature and the physician's validation
// (step-up code), amendments and addenda. Each answers the whole session as recorded.
import { problem } from '../../commonSchemas.js';
import { ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { route, type HttpResult, type RequestContext, type ResponseDecl, type RouteDecl } from '../../routeTypes.js';
import type { CommandContext } from '../../../commands/handleCommand.js';
import type { AppServices } from '../../../services.js';
import type { AmendableBlock } from '../../../commands/dialisis/session/sessionEvents.js';
import {
  addAddendum,
  amendSession,
  entryIdFor,
  sessionCommand,
  sessionState,
  signSession,
  type PlainInput,
  type SessionResult,
} from '../../../commands/dialisis/session/sessionWrites.js';
import { invalidFields } from '../../../commands/shared/fieldChecks.js';
import { isCompanyProduct } from '../../../commands/productos/kitWrites.js';
import { commandCtx, conflict409, ok, precondition412, required428, withFieldPointers, type NoInput } from '../shared/recordSupport.js';
import { IdSchema } from '../shared/fieldSchemas.js';
import {
  AddendumBody,
  AmendBody,
  ComplicationBody,
  EmptyBody,
  EndBody,
  InterruptBody,
  MedicationBody,
  PauseBody,
  PostBody,
  PreBody,
  ReadingBody,
  SafetyBody,
  SignBody,
} from './sessionSchemas.js';
import { SessionView, sessionAnswer } from './sessionAnswer.js';

type IdParams = { id: string };
const Params = { type: 'object', additionalProperties: false, required: ['id'], properties: { id: IdSchema } };
const notFound404 = problem("No such session in the selected company (another company's session is reported the same way)");
const invalid422 = problem('A field broke a rule (errors[] names it), e.g. a reading outside the session');

const responses: Record<number, ResponseDecl> = {
  200: ok('The session as recorded', SessionView),
  404: notFound404,
  409: conflict409,
  412: precondition412,
  422: invalid422,
};

type Write<B> = (
  services: AppServices,
  ctx: CommandContext,
  id: string,
  body: B,
  ifMatch: number | null,
  request: RequestContext,
) => Promise<SessionResult>;

export function sessionActionRoute<B>(decl: {
  path: string;
  summary: string;
  description: string;
  body: Record<string, unknown>;
  permission?: string;
  ifMatchRequired?: boolean;
  write: Write<B>;
}): RouteDecl {
  const required = decl.ifMatchRequired === true;
  return route<IdParams, NoInput, B>({
    method: 'post',
    path: `/dialisis/sesiones/{id}/${decl.path}`,
    tag: 'Dialisis',
    auth: 'tenant',
    permission: decl.permission ?? 'dialisis:write',
    summary: decl.summary,
    description: decl.description,
    params: Params,
    body: decl.body,
    requestHeaders: { 'If-Match': ifMatchHeader(required) },
    responses: required ? { ...responses, 428: required428 } : responses,
    handle: (input, ctx) =>
      withFieldPointers(async (): Promise<HttpResult> => {
        const ifMatch = ifMatchRevision(input.headers['if-match'], required ? { required: true } : undefined);
        const result = await decl.write(ctx.services, commandCtx(ctx), input.params.id, input.body, ifMatch, ctx);
        return sessionAnswer(ctx, input.params.id, result);
      }),
  });
}

/** A medication naming a product names one of the company's, after the session is found (another company's is 404). */
async function mustBeMedicationProduct(services: AppServices, ctx: CommandContext, sessionId: string, body: Record<string, unknown>) {
  await sessionState(services, ctx.tenantId, sessionId);
  const productId = body.productId as string | undefined;
  const problems = [];
  if (productId === undefined && body.stockQuantity !== undefined) problems.push({ field: 'stockQuantity', message: 'needs productId' });
  if (productId !== undefined && !(await isCompanyProduct(services, ctx.tenantId, productId))) {
    problems.push({ field: 'productId', message: 'no such product in this company' });
  }
  if (problems.length > 0) throw invalidFields(problems);
}

const plain =
  <B>(toCommand: (body: B, id: string, ctx: CommandContext) => PlainInput): Write<B> =>
  (services, ctx, id, body, ifMatch) =>
    sessionCommand(services, ctx, id, toCommand(body, id, ctx), ifMatch);
const as = <T extends PlainInput['type']>(type: T, data: unknown): PlainInput => ({ type, data });

export const sessionWriteRoutes: RouteDecl[] = [
  sessionActionRoute({
    path: 'llegada',
    summary: "Check the patient in (the session's arrival time is now)",
    description: 'Only a scheduled session; a cancelled, no-show or later session answers 409.',
    body: EmptyBody,
    write: plain(() => as('CheckInPatient', {})),
  }),
  sessionActionRoute({
    path: 'pre-dialisis',
    summary: 'Record the pre-dialysis block (weights with their tare, vital signs, access, pre BUN)',
    description: 'Recorded again before signing, the latest counts and the history keeps each; after signing only an amendment changes it.',
    body: PreBody,
    write: plain((body) => as('RecordPreDialysis', body)),
  }),
  sessionActionRoute({
    path: 'controles-seguridad',
    summary: 'Record the per-treatment machine safety checks (domain.md 2.13)',
    description:
      'Conductivity against its target (within 5 %), dialysate pH (6.5-7.5), no residual disinfectant, air and blood-leak detectors, alarms. A failed check stops the start.',
    body: SafetyBody,
    write: plain((body) => as('RecordSafetyChecks', body)),
  }),
  sessionActionRoute<{ reason: string }>({
    path: 'pausa',
    summary: 'Pause the treatment (the pause does not count as treatment time)',
    description: "Only a session in progress; at most the company's sessionLimits.pauses (409 session-limit-reached).",
    body: PauseBody,
    write: plain((body) => as('PauseSession', body)),
  }),
  sessionActionRoute({
    path: 'reanudacion',
    summary: 'Resume a paused treatment',
    description: 'Only a paused session.',
    body: EmptyBody,
    write: plain(() => as('ResumeSession', {})),
  }),
  sessionActionRoute<Record<string, unknown>>({
    path: 'lecturas',
    summary: 'Record an intradialytic reading (its time inside the session)',
    description:
      'Between the start and the end (or now); the diastolic below the systolic. A retried request with the same Idempotency-Key adds nothing. ' +
      "At most the company's sessionLimits.readings per session (default 300; 409 session-limit-reached naming the limit).",
    body: ReadingBody,
    write: plain((body, id, ctx) => as('RecordReading', { ...body, readingId: entryIdFor('reading', id, ctx.idempotencyKey) })),
  }),
  sessionActionRoute<Record<string, unknown>>({
    path: 'complicaciones',
    summary: 'Record a complication (coded, with severity, intervention and outcome)',
    description: "Its time inside the session. At most the company's sessionLimits.complications (409 session-limit-reached).",
    body: ComplicationBody,
    write: plain((body, id, ctx) =>
      as('RecordComplication', { ...body, complicationId: entryIdFor('complication', id, ctx.idempotencyKey) }),
    ),
  }),
  sessionActionRoute<Record<string, unknown>>({
    path: 'medicaciones',
    summary: 'Record a medication administered (dose, route, time, lot) or not given (with the reason)',
    description:
      'From check-in until signing; an expired lot is refused. A productId names the product of the company given (422 otherwise): ' +
      "when the session ends, its supplies issue stockQuantity units (default 1) of it, with the lot, from the kit's warehouse. " +
      "At most the company's sessionLimits.medications (409 session-limit-reached).",
    body: MedicationBody,
    write: async (services, ctx, id, body, ifMatch) => {
      await mustBeMedicationProduct(services, ctx, id, body);
      const data = { ...body, medicationId: entryIdFor('medication', id, ctx.idempotencyKey) };
      return sessionCommand(services, ctx, id, as('AdministerMedication', data), ifMatch);
    },
  }),
  sessionActionRoute<{ endedAt?: string }>({
    path: 'fin',
    summary: 'End the treatment (now, or at a stated instant when charted after the fact)',
    description:
      'The effective time leaves out the pauses. A stated endedAt is not in the future, after the start and not before a reading ' +
      '(422 naming it). The machine then gets the hours and awaits disinfection; the dialyzer and lines get a use (process manager).',
    body: EndBody,
    write: plain((body) => as('EndSession', body)),
  }),
  sessionActionRoute({
    path: 'post-dialisis',
    summary: 'Record the post-dialysis block (weights, vital signs, machine UF, post BUN)',
    description: 'After the end or an interruption, before signing.',
    body: PostBody,
    write: plain((body) => as('RecordPostDialysis', body)),
  }),
  sessionActionRoute<{ reasonCode: string; note?: string; interruptedAt?: string }>({
    path: 'interrupcion',
    summary: 'Interrupt a treatment in progress (reason code; the partial data is kept)',
    description: 'The machine, dialyzer and lines still get the use. interruptedAt is stated like the end (default now).',
    body: InterruptBody,
    write: plain((body) => as('InterruptSession', body)),
  }),
  sessionActionRoute<{ code: string }>({
    path: 'firma',
    summary: "The nurse's sign-off (a fresh authenticator code; a staff record with a valid licence)",
    description:
      'Required blocks missing answer 409 naming them; afterwards only amendments (within the editing window) and addenda. ' +
      'Needs a person (never an API client, 403 people-only) with a clinical staff record allowed to sign.',
    body: SignBody,
    permission: 'dialisis:sign',
    write: (services, ctx, id, body, ifMatch) => signSession(services, ctx, id, { kind: 'sign', code: body.code }, ifMatch),
  }),
  sessionActionRoute<{ code: string }>({
    path: 'validacion',
    summary: "The physician's validation of a signed session (a fresh authenticator code; not the nurse who signed)",
    description:
      "Needs a person (never an API client, 403 people-only) whose staff record holds a physician's position (cargos-laborales " +
      'physician) with a valid licence: any other answers 409 signer-may-not-sign naming the reasons (position-not-physician).',
    body: SignBody,
    permission: 'dialisis:validate',
    write: (services, ctx, id, body, ifMatch) => signSession(services, ctx, id, { kind: 'validate', code: body.code }, ifMatch),
  }),
  sessionActionRoute<{ block: AmendableBlock; changes: Record<string, unknown>; reason: string; code: string }>({
    path: 'enmiendas',
    summary: 'Amend a block of a signed session, with the reason, within the editing window (a fresh authenticator code)',
    description:
      "Block 'times' corrects the start and end instants (the treatment time follows). The values and flags are judged again. " +
      "A new event: the original values stay in the history. After the company's editing window only addenda (409 editing-window-closed). " +
      'Needs a person (never an API client, 403 people-only) with a clinical staff record allowed to sign (409 signer-may-not-sign) ' +
      'and a fresh code. An amendment of a validated session sends it back to signed, awaiting validation again; the earlier ' +
      "validation stays in earlierValidations. At most the company's sessionLimits.amendments (409 session-limit-reached).",
    body: AmendBody,
    permission: 'dialisis:sign',
    ifMatchRequired: true,
    write: (services, ctx, id, body, ifMatch) => amendSession(services, ctx, id, body, ifMatch),
  }),
  sessionActionRoute<{ text: string; reason: string; code: string }>({
    path: 'adendas',
    summary: 'Add an addendum to a signed session (a fresh authenticator code)',
    description:
      'Any time after signing; the record itself never changes. Needs a person (never an API client, 403 people-only) with a ' +
      "clinical staff record allowed to sign and a fresh code. At most the company's sessionLimits.addenda (409 session-limit-reached).",
    body: AddendumBody,
    permission: 'dialisis:sign',
    write: (services, ctx, id, body, ifMatch) => addAddendum(services, ctx, id, body, ifMatch),
  }),
];
