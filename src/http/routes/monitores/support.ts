// What the /monitores routes share: the machine's route kit (404, write answer with the maintenance of now) and the
// station check.
import type { RequestContext } from '../../routeTypes.js';
import { ProblemError } from '../../../problems.js';
import { stationOf } from '../../../queries/empresas/locationQueries.js';
import { machineModel, machineWithMaintenance } from '../../../queries/monitores/machines.js';
import { recordKit } from '../shared/recordRoutes.js';
import { tenantCtx } from '../shared/recordSupport.js';
import { MachineView, READ, TAG, WRITE } from './schemas.js';

export const machineKit = recordKit({
  tag: TAG,
  base: '/monitores',
  read: READ,
  write: WRITE,
  noun: 'machine',
  model: machineModel,
  view: (doc, scope) => machineWithMaintenance(scope, doc),
  viewSchema: MachineView,
  auditAs: 'machine',
});

/** The station must be one of this company's (422 naming stationId otherwise). */
export async function mustBeStation(ctx: RequestContext, locationId: string, stationId: string): Promise<void> {
  if (await stationOf(tenantCtx(ctx), locationId, stationId)) return;
  const message = 'no such station at that location of this company';
  throw new ProblemError(422, 'validation-failed', 'Unprocessable Content', `stationId: ${message}`, {}, [
    { pointer: '/body/stationId', message },
  ]);
}
