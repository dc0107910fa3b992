// What the /monitores routes share: the machine's route kit (404, write answer with the maintenance of now).
import { machineModel, machineWithMaintenance } from '../../../queries/monitores/machines.js';
import { recordKit } from '../shared/recordRoutes.js';
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
