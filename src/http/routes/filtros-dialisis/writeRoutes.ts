// /filtros-dialisis writes: receive, assign to a patient, reprocess, pre-use checks, use, discard.
import { recordAnswer } from '../../recordAnswer.js';
import { problem } from '../../commonSchemas.js';
import { ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { handTypedRoute, type HttpResult, type RequestContext, type RouteDecl } from '../../routeTypes.js';
import type { CommandContext, CommandResult } from '../../../commands/handleCommand.js';
import type { AppServices } from '../../../services.js';
import type { DialyzerFields } from '../../../commands/filtros-dialisis/dialyzerEvents.js';
import {
  assignDialyzer,
  discardDialyzer,
  receiveDialyzer,
  recordDialyzerUseByHand,
  recordPreUseChecks,
  reprocessDialyzer,
} from '../../../commands/filtros-dialisis/dialyzerWrites.js';
import { dialyzerView } from '../../../projections/filtros-dialisis/dialyzerDoc.js';
import { dialyzerAfterWrite } from '../../../queries/filtros-dialisis/dialyzers.js';
import { commandCtx, conflict409, ok, precondition412, RECORD_HEADERS, withFieldPointers, type NoInput } from '../shared/recordSupport.js';
import { IdSchema } from '../shared/fieldSchemas.js';
import { AssignBody, DialyzerView, DiscardBody, PreUseChecksBody, ReceiveBody, ReprocessBody, TAG, UseBody, WRITE } from './schemas.js';

export type IdParams = { id: string };
export const Params = { type: 'object', additionalProperties: false, required: ['id'], properties: { id: IdSchema } };
export const notFound404 = problem("No such dialyzer in the selected company (another company's dialyzer is reported the same way)");
const invalid422 = problem('A field broke a rule (errors[] names it), e.g. a patient that is not of this company');

/** The dialyzer after a write (see recordAnswer); a 201 points at it. */
const dialyzerRecord = { latest: dialyzerAfterWrite, view: dialyzerView, location: (id: string) => `/filtros-dialisis/${id}` };
export const dialyzerAnswer = (ctx: RequestContext, id: string, result: CommandResult<unknown>, status: number): Promise<HttpResult> =>
  recordAnswer(ctx, dialyzerRecord, id, result, status);

type Write<B> = (
  services: AppServices,
  ctx: CommandContext,
  id: string,
  body: B,
  ifMatch: number | null,
) => Promise<CommandResult<unknown>>;

function actionRoute<B>(decl: {
  path: string;
  summary: string;
  description: string;
  body: Record<string, unknown>;
  write: Write<B>;
}): RouteDecl {
  return handTypedRoute<IdParams, NoInput, B>({
    method: 'post',
    path: `/filtros-dialisis/{id}/${decl.path}`,
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    summary: decl.summary,
    description: decl.description,
    params: Params,
    body: decl.body,
    requestHeaders: { 'If-Match': ifMatchHeader(false) },
    responses: { 200: ok('The dialyzer', DialyzerView), 404: notFound404, 409: conflict409, 412: precondition412, 422: invalid422 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const ifMatch = ifMatchRevision(input.headers['if-match']);
        const result = await decl.write(ctx.services, commandCtx(ctx), input.params.id, input.body, ifMatch);
        return dialyzerAnswer(ctx, input.params.id, result, 200);
      }),
  });
}

export const writeRoutes: RouteDecl[] = [
  handTypedRoute<NoInput, NoInput, DialyzerFields>({
    method: 'post',
    path: '/filtros-dialisis',
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    idempotent: true,
    summary: 'Receive a dialyzer (in stock)',
    description: 'The serial is unique within the company (trimmed, ignoring case): a second one answers 409 duplicate-serial.',
    body: ReceiveBody,
    responses: {
      201: ok('The new dialyzer', DialyzerView, { ...RECORD_HEADERS, Location: 'URL of the dialyzer' }),
      409: conflict409,
      422: invalid422,
    },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const { dialyzerId, result } = await receiveDialyzer(ctx.services, commandCtx(ctx), input.body);
        return dialyzerAnswer(ctx, dialyzerId, result, 201);
      }),
  }),
  actionRoute({
    path: 'asignacion',
    summary: 'Assign the dialyzer to its patient with the baseline TCV',
    description: 'Patient-exclusive for life: another patient answers 409 patient-mismatch. A patient not of this company: 422.',
    body: AssignBody,
    write: assignDialyzer,
  }),
  actionRoute({
    path: 'reprocesos',
    summary: 'Record a reprocessing cycle',
    description:
      'Rules from the company policy (dialyzerReuse): TCV below tcvThresholdPercent of the baseline discards the dialyzer in this ' +
      'same answer (reason tcv-below-threshold); a failed blood-leak test discards it, a failed pressure-leak test quarantines it ' +
      '(a later reprocessing re-tests it). Refused (409): single-use dialyzers, maximum uses reached, and an HBsAg-positive ' +
      'patient unless the policy allows reuse (hbsag-positive-no-reuse).',
    body: ReprocessBody,
    write: reprocessDialyzer,
  }),
  actionRoute({
    path: 'controles-previos',
    summary: 'Record the pre-use checks of a dialyzer (before its first use or a reuse)',
    description:
      'The patient identity confirmed by two different people, each with their own current authenticator code: active, ' +
      'activated members of the company with a staff record that may sign clinical records now (422 naming ' +
      'identityConfirmations otherwise; a refusal spends no code). Before the first use of a reusable dialyzer this identity ' +
      'check alone; before a reuse also the germicide potency and the residual test. A failed check keeps the dialyzer from use.',
    body: PreUseChecksBody,
    write: recordPreUseChecks,
  }),
  actionRoute({
    path: 'usos',
    summary: 'Record by hand the use of the dialyzer in an ended session (back-entry)',
    description:
      "A session's start claims its dialyzer and its end records the use; by hand only for a session of this patient in this " +
      'company (422 naming sessionId) that has ended (409 session-not-ended: a running session keeps its dialyzer) and used this ' +
      'dialyzer (409 not-equipment-of-session); a use already counted changes nothing. Refused (409, type = the first reason, ' +
      'reasons[] = every one) unless the dialyzer is ready for this patient: same patient, not discarded or quarantined, ' +
      'reprocessed since its last use, uses below the maximum of its model, and for a reuse the pre-use checks passed, germicide ' +
      'dwell and storage time within policy; a reusable one also needs the identity check before its first use. A single-use ' +
      'dialyzer is discarded after its use, any other after the use that reaches its maximum.',
    body: UseBody,
    write: recordDialyzerUseByHand,
  }),
  actionRoute({
    path: 'descarte',
    summary: 'Discard the dialyzer (final) with a reason from the list',
    description: 'Discarded is terminal: every later command answers 409 dialyzer-discarded.',
    body: DiscardBody,
    write: discardDialyzer,
  }),
];
