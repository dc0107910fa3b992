// Read model of the Monitores group: the company's dialysis machines.
import { MACHINE_EVENT_TYPES } from '../../commands/monitores/machineEvents.js';
import { applyFold, type Projection } from '../runner/projection.js';
import { tenantOfStream } from '../../stores/eventStore.js';
import { foldMachine, idOfStream, type MachineDoc } from './machineDoc.js';

export const MONITORES_PROJECTION = 'monitores';
export const MACHINES = 'machines';

export const monitoresProjection: Projection = {
  name: MONITORES_PROJECTION,
  // 2: a late end of a session that no longer holds the machine never frees it; uses by day since the last maintenance,
  // failed calibrations and the calibration clock (issue 21 items 10 and 12): machines fold again.
  version: 2,
  collections: {
    [MACHINES]: [
      { keys: { tenantId: 1, codeKey: 1, id: 1 }, name: 'by_code' },
      { keys: { tenantId: 1, status: 1, codeKey: 1, id: 1 }, name: 'by_status_code' },
    ],
  },
  eventTypes: MACHINE_EVENT_TYPES,
  handle(event, tx) {
    return applyFold<MachineDoc>(tx, MACHINES, tenantOfStream(event.streamName), idOfStream(event.streamName), event, foldMachine);
  },
};
