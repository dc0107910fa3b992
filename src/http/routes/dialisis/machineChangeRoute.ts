// POST /dialisis/sesiones/{id}/cambio-maquina: a machine changed mid-session (issue 21 item 8) with the start's safety:
// the new machine is this company's (422 naming machineId) and passes the interlocks and its own safety checks, it is
// claimed for the session, and the old one ends its use with the minutes it ran.
import type { RouteDecl } from '../../routeTypes.js';
import { invalidFields } from '../../../commands/shared/fieldChecks.js';
import type { ChangeMachineData } from '../../../commands/dialisis/session/machineChange.js';
import { changeSessionMachine } from '../../../commands/dialisis/session/machineChangeWrites.js';
import { sessionState } from '../../../commands/dialisis/session/sessionWrites.js';
import { stationOf } from '../../../queries/empresas/locationQueries.js';
import { machines } from '../../../queries/monitores/machines.js';
import { freeText } from '../../commonSchemas.js';
import { IdSchema } from '../shared/fieldSchemas.js';
import { tenantCtx } from '../shared/recordSupport.js';
import { SafetyBody, obj } from './sessionSchemas.js';
import { sessionActionRoute } from './sessionWriteRoutes.js';

const MachineChangeBody = obj(
  {
    machineId: { ...IdSchema, description: 'The machine that takes over the treatment' },
    stationId: IdSchema,
    reason: freeText(1000, 'Why the machine was changed (alarm, failure, clotting...)'),
    safetyChecks: { ...SafetyBody, description: "The new machine's per-treatment safety checks (domain.md 2.13): all must pass" },
  },
  ['machineId', 'reason', 'safetyChecks'],
);

export function machineChangeRoute(): RouteDecl {
  return sessionActionRoute<ChangeMachineData>({
    path: 'cambio-maquina',
    summary: 'Change the machine of a running session: the new one claimed after its interlocks and safety checks, the old one released',
    description:
      'Only a session in progress or paused. The new machine must be available, disinfected after its last patient, within ' +
      'its preventive maintenance and fit for the patient by isolation (409 machine-change-refused naming the reasons), and ' +
      'its safety checks must pass (409 safety-checks-failed). The old machine then gets the treatment minutes it ran and awaits ' +
      'disinfection (process manager). A machine of another company, or a station outside the session location, is 422.',
    body: MachineChangeBody,
    write: async (services, ctx, id, body, ifMatch, request) => {
      // another company's session is 404 before its body is judged
      const { locationId } = (await sessionState(services, ctx.tenantId, id)).scheduled!;
      const scope = tenantCtx(request);
      if (body.stationId && !(await stationOf(scope, locationId, body.stationId))) {
        throw invalidFields([{ field: 'stationId', message: "no such station in the session's location" }]);
      }
      if (!(await machines(scope).get(ctx.tenantId, body.machineId))) {
        throw invalidFields([{ field: 'machineId', message: 'no such machine in this company' }]);
      }
      return changeSessionMachine(services, ctx, id, body, ifMatch);
    },
  });
}
