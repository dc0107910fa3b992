// POST /dialisis/sesiones/{id}/inicio: the start with its interlocks (issue 10 item 4). Equipment named in the body must
// be this company's, the station one of the session's location (422 naming the field); every rule that refuses the
// start is named in one 409.
import type { RouteDecl, RequestContext } from '../../routeTypes.js';
import { invalidFields } from '../../../commands/shared/fieldChecks.js';
import { startSession, type StartInput } from '../../../commands/dialisis/session/sessionStartWrites.js';
import { sessionState } from '../../../commands/dialisis/session/sessionWrites.js';
import { stationOf } from '../../../queries/empresas/locationQueries.js';
import { machines } from '../../../queries/monitores/machines.js';
import { dialyzers } from '../../../queries/filtros-dialisis/dialyzers.js';
import { bloodlineOr404 } from '../../../queries/lineas/bloodlines.js';
import { tenantCtx } from '../shared/recordSupport.js';
import { StartBody } from './sessionSchemas.js';
import { sessionActionRoute } from './sessionWriteRoutes.js';

// A field rule like the decider's: the session write route answers it as 422 pointing at the field.
const absent = (field: string, what: string) => invalidFields([{ field, message: `no such ${what} in this company` }]);

async function mustBeCompanyEquipment(ctx: RequestContext, locationId: string, body: StartInput): Promise<void> {
  const scope = tenantCtx(ctx);
  const tenantId = scope.auth.tenantId;
  // The sheet and the board find the station in the session's location: another location's (or company's) is absent.
  if (body.stationId && !(await stationOf(scope, locationId, body.stationId))) {
    throw absent('stationId', "station in the session's location");
  }
  if (!(await machines(scope).get(tenantId, body.machineId))) throw absent('machineId', 'machine');
  if (body.dialyzerId && !(await dialyzers(scope).get(tenantId, body.dialyzerId))) throw absent('dialyzerId', 'dialyzer');
  for (const [field, lineType, id] of [
    ['arterialLineId', 'arterial', body.arterialLineId],
    ['venousLineId', 'venous', body.venousLineId],
  ] as const) {
    if (id) await bloodlineOr404(scope, lineType, id).catch(() => Promise.reject(absent(field, `${lineType} line`)));
  }
}

export function startRoute(): RouteDecl {
  return sessionActionRoute<StartInput>({
    path: 'inicio',
    summary: 'Start the treatment: machine, dialyzer and bloodlines claimed for this session after every interlock',
    description:
      'The patient is active and has a prescription in force that day; the session is checked in with its pre block and passed ' +
      'safety checks; the machine may start for this patient (available, disinfected after the last patient, preventive ' +
      'maintenance and calibration per policy, no failed calibration, isolation both ways) and runs one session at a time; the ' +
      "dialyzer and lines are this patient's and pass every pre-use rule, and the dialyzer is the prescribed one (model, flux " +
      'and surface: dialyzer-model-not-prescribed, dialyzer-flux-not-prescribed, dialyzer-surface-not-prescribed; another ' +
      "dialyzer needs the physician's new prescription, never an override at the bedside). A refusal (409 session-may-not-start) names every failed rule by item. " +
      "Equipment of another company, or a station outside the session's location, answers 422 naming the field. " +
      'A stated startedAt charts a treatment after the fact (not in the future). The session keeps the access it uses.',
    body: StartBody,
    write: async (services, ctx, id, body, ifMatch, request) => {
      // another company's session is 404 before its body is judged
      const { locationId } = (await sessionState(services, ctx.tenantId, id)).scheduled!;
      await mustBeCompanyEquipment(request, locationId, body);
      return startSession(services, ctx, id, body, ifMatch);
    },
  });
}
