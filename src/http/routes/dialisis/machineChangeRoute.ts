// POST /dialisis/sesiones/{id}/cambio-maquina: a machine changed mid-session (issue 21 item 8) with the start's safety:
// the new machine is this company's (422 naming machineId) and passes the interlocks and its own safety checks, it is
// claimed for the session, and the old one ends its use with the minutes it ran.
import type { RouteDecl } from '../../routeTypes.js';
import { changeSessionMachine } from '../../../commands/dialisis/session/machineChangeWrites.js';
import { machineChangeDeps } from '../../../facts/dialisis/index.js';
import { IdSchema } from '../shared/fieldSchemas.js';
import { described, freeText, obj } from './schemaParts.js';
import { SafetyBody } from './sessionSchemas.js';
import { sessionActionRoute } from './sessionKit.js';

const MachineChangeBody = obj(
  {
    machineId: described(IdSchema, 'The machine that takes over the treatment'),
    stationId: IdSchema,
    reason: freeText(1000, 'Why the machine was changed (alarm, failure, clotting...)'),
    safetyChecks: described(SafetyBody, "The new machine's per-treatment safety checks (domain.md 2.13): all must pass"),
  },
  ['machineId', 'reason', 'safetyChecks'],
);

export function machineChangeRoute(): RouteDecl {
  return sessionActionRoute({
    path: 'cambio-maquina',
    summary: 'Change the machine of a running session: the new one claimed after its interlocks and safety checks, the old one released',
    description:
      'Only a session in progress or paused. The new machine must be available, disinfected after its last patient, within ' +
      'its preventive maintenance and fit for the patient by isolation (409 machine-change-refused naming the reasons), and ' +
      'its safety checks must pass (409 safety-checks-failed). The old machine then gets the treatment minutes it ran and awaits ' +
      'disinfection (process manager). A machine of another company, or a station outside the session location, is 422.',
    body: MachineChangeBody,
    // Another company's session is 404 before its body is judged; the machine and station are checked by the change's facts.
    write: (services, ctx, id, body, ifMatch) => changeSessionMachine(machineChangeDeps(services), ctx, id, body, ifMatch),
  });
}
