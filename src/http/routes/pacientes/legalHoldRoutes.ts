// /pacientes/{id}/retencion-legal: a legal hold on the patient, placed and lifted with a reason by an auditor or an
// administrator (pacientes:legal-hold); while it is in force no retention job may archive or purge anything of the patient.
import Type from 'typebox';
import { freeText } from '../../commonSchemas.js';
import { writeHeaders } from '../../recordHeaders.js';
import { route, type RequestContext, type RouteDecl } from '../../routeTypes.js';
import { liftLegalHold, placeLegalHold } from '../../../commands/pacientes/legalHoldWrites.js';
import type { CommandResult } from '../../../commands/handleCommand.js';
import { legalHoldOf } from '../../../queries/pacientes/legalHold.js';
import { patientModel } from '../../../queries/pacientes/readModel.js';
import { closed, DateTimeSchema, stringOrNull } from '../shared/fieldSchemas.js';
import { commandCtx, conflict409, notFound404, ok, PatientParams, TAG, tenantCtx, withFieldPointers } from './routeSupport.js';

export const LEGAL_HOLD = 'pacientes:legal-hold';
const PATH = '/pacientes/{id}/retencion-legal';

const reference = stringOrNull({ maxLength: 100, description: 'The matter it serves (court file...)' });

const LegalHoldBody = closed({
  held: Type.Boolean({ description: 'true places the hold, false lifts it' }),
  reason: freeText(500, 'Why: recorded with the event'),
  reference: Type.Optional(reference),
});

const LegalHoldEntry = closed(
  {
    revision: Type.Integer({ minimum: 0 }),
    type: Type.Enum(['LegalHoldPlaced', 'LegalHoldLifted']),
    occurredAt: DateTimeSchema,
    actor: Type.String(),
    reason: Type.String(),
    reference,
  },
  { title: 'LegalHoldEntry' },
);

export const LegalHoldView = closed(
  {
    patientId: Type.String(),
    held: Type.Boolean(),
    current: Type.Union([
      closed({ since: DateTimeSchema, placedBy: Type.String(), reason: Type.String(), reference }, { title: 'LegalHoldInForce' }),
      Type.Null(),
    ]),
    revision: Type.Integer({ minimum: -1 }),
    history: Type.Array(LegalHoldEntry),
  },
  { title: 'LegalHold' },
);

async function answer(ctx: RequestContext, patientId: string, result: CommandResult<unknown>) {
  const body = await legalHoldOf(tenantCtx(ctx), patientId);
  return { status: 200 as const, body, headers: writeHeaders({ revision: result.revision, position: result.position }) };
}

export const legalHoldRoutes: RouteDecl[] = [
  route({
    method: 'get',
    path: PATH,
    tag: TAG,
    auth: 'tenant',
    permission: LEGAL_HOLD,
    summary: "The patient's legal hold: in force or not, and every placement and lift (who, when, why)",
    params: PatientParams,
    responses: { 200: ok('The legal hold', LegalHoldView, {}), 404: notFound404 },
    auditAccess: (input) => ({ recordType: 'legalHold', recordId: input.params.id }),
    handle: async (input, ctx) => {
      await patientModel.mustExist(tenantCtx(ctx), input.params.id);
      return { status: 200, body: await legalHoldOf(tenantCtx(ctx), input.params.id) };
    },
  }),
  route({
    method: 'post',
    path: PATH,
    tag: TAG,
    auth: 'tenant',
    permission: LEGAL_HOLD,
    summary: 'Place (held true) or lift (held false) a legal hold on the patient',
    description:
      'With a reason. While held no retention job may archive or purge any record of the patient. ' +
      '409 legal-hold-in-force (already held) or no-legal-hold (nothing to lift).',
    params: PatientParams,
    body: LegalHoldBody,
    responses: { 200: ok('The legal hold', LegalHoldView), 404: notFound404, 409: conflict409 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const { id } = input.params;
        const command = commandCtx(ctx, input.body.reason.trim());
        if (input.body.held) return answer(ctx, id, await placeLegalHold(ctx.services.events, command, id, input.body));
        await patientModel.mustExist(tenantCtx(ctx), id);
        return answer(ctx, id, await liftLegalHold(ctx.services.events, command, id, input.body));
      }),
  }),
];
