// POST /lineas-arteriales/{id}/emparejamiento: pairs an arterial line with a venous line of the same patient.
import { ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { route, type RouteDecl } from '../../routeTypes.js';
import { pairBloodlines } from '../../../commands/lineas/bloodlineWrites.js';
import { forbidden } from '../../../problems.js';
import { commandCtx, conflict409, ok, precondition412, withFieldPointers } from '../shared/recordSupport.js';
import { IdParams } from '../shared/fieldSchemas.js';
import { lineKit, type LineGroupConfig } from './routes.js';
import { LineView, PairBody } from './schemas.js';

const VENOUS_WRITE = 'lineas-venosas:write';

export const pairingRoute = (c: LineGroupConfig): RouteDecl => {
  const lines = lineKit(c);
  return route({
    method: 'post',
    path: `${c.base}/{id}/emparejamiento`,
    tag: c.tag,
    auth: 'tenant',
    permission: c.write,
    idempotent: true,
    summary: 'Pair an arterial line with a venous line of the same patient',
    description:
      'Both lines must belong to the same patient and be usable (not discarded, under their maximum). The pair is recorded on both ' +
      'lines; a venous line of another company answers 422 naming venosaId. If-Match applies to the arterial line. ' +
      'The caller needs lineas-venosas:write too (403): the pairing is recorded on the venous line.',
    params: IdParams,
    body: PairBody,
    requestHeaders: { 'If-Match': ifMatchHeader(false) },
    responses: { 200: ok('The arterial line', LineView), 404: lines.notFound404, 409: conflict409, 412: precondition412 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        // The pairing is written on the venous line too: its own write permission is needed as well.
        if (!ctx.auth?.permissions.has(VENOUS_WRITE)) throw forbidden(VENOUS_WRITE);
        const ifMatch = ifMatchRevision(input.headers['if-match']);
        const result = await pairBloodlines(ctx.services, commandCtx(ctx), input.params.id, input.body.venosaId, ifMatch);
        return lines.answer(ctx, input.params.id, result, 200);
      }),
  });
};
