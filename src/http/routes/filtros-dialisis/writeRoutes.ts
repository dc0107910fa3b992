// /filtros-dialisis writes: receive, assign to a patient, reprocess, pre-use checks, use, discard.
import type { Static, TSchema } from 'typebox';
import { problem } from '../../commonSchemas.js';
import type { RouteDecl } from '../../routeTypes.js';
import type { CommandContext } from '../../../commands/handleCommand.js';
import type { AppServices } from '../../../services.js';
import {
  assignDialyzer,
  discardDialyzer,
  receiveDialyzer,
  recordDialyzerUseByHand,
  recordPreUseChecks,
  reprocessDialyzer,
} from '../../../commands/filtros-dialisis/dialyzerWrites.js';
import { dialyzerView } from '../../../projections/filtros-dialisis/dialyzerDoc.js';
import { dialyzerModel } from '../../../queries/filtros-dialisis/dialyzers.js';
import type { WriteOutcome } from '../../../queries/recordModel.js';
import { recordKit } from '../shared/recordRoutes.js';
import { commandCtx } from '../shared/recordSupport.js';
import {
  AssignBody,
  DialyzerView,
  DiscardBody,
  PreUseChecksBody,
  READ,
  ReceiveBody,
  ReprocessBody,
  TAG,
  UseBody,
  WRITE,
} from './schemas.js';

export const dialyzerKit = recordKit({
  tag: TAG,
  base: '/filtros-dialisis',
  read: READ,
  write: WRITE,
  noun: 'dialyzer',
  model: dialyzerModel,
  view: dialyzerView,
  viewSchema: DialyzerView,
  auditAs: 'dialyzer',
});
const invalid422 = problem('A field broke a rule (errors[] names it), e.g. a patient that is not of this company');

type Write<B> = (services: AppServices, ctx: CommandContext, id: string, body: B, ifMatch: number | null) => Promise<WriteOutcome>;

/** A step in the dialyzer's life: If-Match optional, 422 when a field breaks a rule. */
const step = <B extends TSchema>(decl: { path: string; summary: string; description: string; body: B; write: Write<Static<B>> }) =>
  dialyzerKit.action({
    path: decl.path,
    summary: decl.summary,
    description: decl.description,
    body: decl.body,
    responses: { 422: invalid422 },
    handle: (id, body, ctx, ifMatch) => decl.write(ctx.services, commandCtx(ctx), id, body, ifMatch),
  });

export const writeRoutes: RouteDecl[] = [
  dialyzerKit.create({
    summary: 'Receive a dialyzer (in stock)',
    description: 'The serial is unique within the company (trimmed, ignoring case): a second one answers 409 duplicate-serial.',
    body: ReceiveBody,
    responses: { 422: invalid422 },
    idKey: 'dialyzerId',
    handle: (body, ctx) => receiveDialyzer(ctx.services, commandCtx(ctx), body),
  }),
  step({
    path: 'asignacion',
    summary: 'Assign the dialyzer to its patient with the baseline TCV',
    description: 'Patient-exclusive for life: another patient answers 409 patient-mismatch. A patient not of this company: 422.',
    body: AssignBody,
    write: assignDialyzer,
  }),
  step({
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
  step({
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
  step({
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
  step({
    path: 'descarte',
    summary: 'Discard the dialyzer (final) with a reason from the list',
    description: 'Discarded is terminal: every later command answers 409 dialyzer-discarded.',
    body: DiscardBody,
    write: discardDialyzer,
  }),
];
