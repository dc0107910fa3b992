// POST /dialisis/sesiones/{id}/inicio: the start with its interlocks (issue 10 item 4). Equipment named in the body must
// be this company's, the station one of the session's location (422 naming the field); every rule that refuses the
// start is named in one 409.
import type { RouteDecl } from '../../routeTypes.js';
import { startSession } from '../../../commands/dialisis/session/sessionStartWrites.js';
import { startDeps } from '../../../facts/dialisis/index.js';
import { StartBody } from './sessionSchemas.js';
import { sessionActionRoute } from './sessionKit.js';

export function startRoute(): RouteDecl {
  return sessionActionRoute({
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
    // Another company's session is 404 before its body is judged; its equipment and station are checked by the start's facts.
    write: (services, ctx, id, body, ifMatch) => startSession(startDeps(services), ctx, id, body, ifMatch),
  });
}
