// Read model of the LineasArterial and LineasVenosa groups: one collection, each line carrying its kind.
import { BLOODLINE_EVENT_TYPES } from '../../commands/lineas/bloodlineEvents.js';
import { applyFold, type Projection } from '../runner/projection.js';
import { tenantOfStream } from '../../stores/eventStore.js';
import { foldBloodline, type BloodlineDoc } from './bloodlineDoc.js';

export const LINEAS_PROJECTION = 'bloodlines';
export const BLOODLINES = 'bloodlines';

export const lineasProjection: Projection = {
  name: LINEAS_PROJECTION,
  version: 1,
  collections: {
    [BLOODLINES]: [
      { keys: { tenantId: 1, lineType: 1, receivedOn: -1, id: 1 }, name: 'by_type_received' },
      { keys: { tenantId: 1, lineType: 1, patientId: 1, id: 1 }, name: 'by_type_patient' },
      { keys: { tenantId: 1, lineType: 1, status: 1, id: 1 }, name: 'by_type_status' },
    ],
  },
  eventTypes: BLOODLINE_EVENT_TYPES,
  handle(event, tx) {
    const id = event.streamName.slice(event.streamName.indexOf('-') + 1);
    return applyFold<BloodlineDoc>(tx, BLOODLINES, tenantOfStream(event.streamName), id, event, foldBloodline);
  },
};
