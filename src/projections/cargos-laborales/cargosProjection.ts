// Read model of the CargosLaborales group: the company's job positions.
import { JOB_POSITION_EVENT_TYPES } from '../../commands/cargos-laborales/jobPositionEvents.js';
import { applyFold, type Projection } from '../runner/projection.js';
import { tenantOfStream } from '../../stores/eventStore.js';
import { foldJobPosition, idOfStream, type JobPositionDoc } from './jobPositionDoc.js';

export const CARGOS_PROJECTION = 'cargosLaborales';
export const JOB_POSITIONS = 'jobPositions';

export const cargosProjection: Projection = {
  name: CARGOS_PROJECTION,
  version: 1,
  collections: {
    [JOB_POSITIONS]: [
      { keys: { tenantId: 1, codeKey: 1, id: 1 }, name: 'by_code' },
      { keys: { tenantId: 1, status: 1, codeKey: 1, id: 1 }, name: 'by_status_code' },
    ],
  },
  eventTypes: JOB_POSITION_EVENT_TYPES,
  handle(event, tx) {
    return applyFold<JobPositionDoc>(
      tx,
      JOB_POSITIONS,
      tenantOfStream(event.streamName),
      idOfStream(event.streamName),
      event,
      foldJobPosition,
    );
  },
};
