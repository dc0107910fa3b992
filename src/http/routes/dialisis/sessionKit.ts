// The session's route kit: its record routes (read, history's 404, the write answer: the session model's view through
// recordAnswer) and the action along the session's life (POST /dialisis/sesiones/{id}/<path>), declared once.
import type { Static, TSchema } from 'typebox';
import { problem } from '../../commonSchemas.js';
import { ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { route, type RequestContext, type ResponseDecl, type RouteDecl } from '../../routeTypes.js';
import type { CommandContext } from '../../../commands/handleCommand.js';
import type { SessionResult } from '../../../commands/dialisis/session/sessionWrites.js';
import type { AppServices } from '../../../services.js';
import { sessionModel } from '../../../queries/dialisis/sessions.js';
import { sessionWithClinical } from '../../../queries/dialisis/sessionClinicalView.js';
import { CLINICAL_SOURCES } from '../../../queries/dialisis/clinicalSources.js';
import { commandCtx, conflict409, ok, precondition412, required428, withFieldPointers } from '../shared/recordSupport.js';
import { recordKit } from '../shared/recordRoutes.js';
import { IdParams } from '../shared/fieldSchemas.js';
import { READ, TAG, WRITE } from './permissions.js';
import { SessionView } from './sessionViewSchema.js';

export const sessionKit = recordKit({
  tag: TAG,
  base: '/dialisis/sesiones',
  read: READ,
  write: WRITE,
  noun: 'session',
  model: sessionModel,
  view: (doc, scope) => sessionWithClinical(scope, doc),
  viewSchema: SessionView,
  auditAs: 'dialysisSession',
  // A floor's screens read a session every few seconds; its view (readings, clinical values) is made once per change.
  preparedRead: { alsoFrom: CLINICAL_SOURCES },
});

const invalid422 = problem('A field broke a rule (errors[] names it), e.g. a reading outside the session');
const responses: Record<number, ResponseDecl> = {
  200: ok('The session as recorded', SessionView),
  404: sessionKit.notFound404,
  409: conflict409,
  412: precondition412,
  422: invalid422,
};

export type SessionWrite<B> = (
  services: AppServices,
  ctx: CommandContext,
  id: string,
  body: B,
  ifMatch: number | null,
  request: RequestContext,
) => Promise<SessionResult>;

/** An action on a session: If-Match optional (or required), the whole session as recorded in the answer. */
export function sessionActionRoute<B extends TSchema>(decl: {
  path: string;
  summary: string;
  description: string;
  body: B;
  permission?: string;
  ifMatchRequired?: boolean;
  write: SessionWrite<Static<B>>;
}): RouteDecl {
  const required = decl.ifMatchRequired === true;
  return route({
    method: 'post',
    path: `/dialisis/sesiones/{id}/${decl.path}`,
    tag: TAG,
    auth: 'tenant',
    permission: decl.permission ?? WRITE,
    summary: decl.summary,
    description: decl.description,
    params: IdParams,
    body: decl.body,
    requestHeaders: { 'If-Match': ifMatchHeader(required) },
    responses: required ? { ...responses, 428: required428 } : responses,
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const ifMatch = ifMatchRevision(input.headers['if-match'], required ? { required: true } : undefined);
        const body = input.body as Static<B>;
        const result = await decl.write(ctx.services, commandCtx(ctx), input.params.id, body, ifMatch, ctx);
        return sessionKit.answer(ctx, input.params.id, result);
      }),
  });
}
