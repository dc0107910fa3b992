// The prescription's route kit: a prescriber's write on the patient's prescription stream (If-Match optional), answered
// with the version it wrote (the version record model's view through recordAnswer), declared once.
import type { Static, TSchema } from 'typebox';
import { problem } from '../../commonSchemas.js';
import { recordAnswer } from '../../recordAnswer.js';
import { ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { route, type HttpResult, type RequestContext, type ResponseDecl, type RouteDecl } from '../../routeTypes.js';
import type { PrescriptionDeps, PrescriptionResult } from '../../../commands/dialisis/prescription/prescriptionWrites.js';
import { prescriptionDeps } from '../../../facts/dialisis/index.js';
import { prescriptionDocId } from '../../../projections/dialisis/prescriptionsDoc.js';
import { prescriptionModel, prescriptionVersionView } from '../../../queries/dialisis/prescriptions.js';
import { conflict409, precondition412, withFieldPointers } from '../shared/recordSupport.js';
import { PRESCRIBE, TAG } from './permissions.js';
import { PatientParams } from './prescriptionSchemas.js';

export const patient404 = problem("No such patient in the selected company (another company's patient is reported the same way)");
const forbidden403 = problem(
  'Missing permission dialisis:prescribe (`/problems/forbidden`), or the caller may not sign clinical records now: no staff ' +
    'record, not a clinical position, not a physician position, no valid licence (`/problems/prescriber-may-not-sign`, ' +
    'reasons[]); and the framework reasons',
);
const ifMatch = { 'If-Match': ifMatchHeader(false) };

/** The version a write produced or changed (the patient's versions list is where a new one lives). */
const versionRecord = {
  latest: prescriptionModel.latest,
  view: prescriptionVersionView,
  location: (id: string) => `/dialisis/pacientes/${id.slice(0, id.lastIndexOf(':'))}/prescripciones`,
};
function answer(ctx: RequestContext, patientId: string, result: PrescriptionResult, status: 200 | 201): Promise<HttpResult> {
  const version = (result.events[0]?.data as { version?: number } | undefined)?.version;
  return recordAnswer(ctx, versionRecord, prescriptionDocId(patientId, version ?? 0), result, status);
}

/** A prescriber's write on the patient's prescription stream (If-Match optional): answers the version it wrote. */
export function prescribeRoute<B extends TSchema>(decl: {
  path: string;
  created: boolean;
  summary: string;
  description: string;
  body: B;
  answered: ResponseDecl;
  write: (
    deps: PrescriptionDeps,
    ctx: RequestContext,
    patientId: string,
    body: Static<B>,
    expected: number | null,
  ) => Promise<PrescriptionResult>;
}): RouteDecl {
  return route({
    method: 'post',
    path: decl.path,
    tag: TAG,
    auth: 'tenant',
    permission: PRESCRIBE,
    ...(decl.created ? { idempotent: true } : {}),
    summary: decl.summary,
    description: decl.description,
    params: PatientParams,
    body: decl.body,
    requestHeaders: ifMatch,
    responses: {
      [decl.created ? 201 : 200]: decl.answered,
      403: forbidden403,
      404: patient404,
      409: conflict409,
      412: precondition412,
    },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const expected = ifMatchRevision(input.headers['if-match']);
        const result = await decl.write(prescriptionDeps(ctx.services), ctx, input.params.patientId, input.body as Static<B>, expected);
        return answer(ctx, input.params.patientId, result, decl.created ? 201 : 200);
      }),
  });
}
