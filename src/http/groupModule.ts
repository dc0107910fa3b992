// A resource group plugs into the service through one of these; src/http/groups.ts lists them
// (one line per group).
import type { RouteDecl } from './routeTypes.js';
import type { Projection } from '../projections/runner/projection.js';
import type { ProcessManager } from '../processes/processRunner.js';
import type { PeriodicTask } from '../processes/periodicTasks.js';
import type { AppServices } from '../services.js';

export interface GroupModule {
  /** OpenAPI tag / group identifier, e.g. 'Pacientes'. */
  tag: string;
  /** Description of the tag in the OpenAPI document. */
  description: string;
  /** Permission names this group defines, e.g. ['pacientes:read', 'pacientes:write']. */
  permissions: readonly string[];
  routes: readonly RouteDecl[];
  projections: readonly Projection[];
  /** Process managers the group runs: reactions to events with commands to other aggregates. */
  processes?: readonly ProcessManager<AppServices>[];
  /** Work repeated on a timer (reconciliations): at start, then periodically. */
  periodicTasks?: readonly PeriodicTask<AppServices>[];
}
