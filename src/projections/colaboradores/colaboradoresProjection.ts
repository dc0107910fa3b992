// Read model of the Colaboradores group: the company's staff records.
import { STAFF_EVENT_TYPES } from '../../commands/colaboradores/staffEvents.js';
import { applyFold, type Projection } from '../runner/projection.js';
import { tenantOfStream } from '../../stores/eventStore.js';
import { foldStaff, type StaffDoc } from './staffDoc.js';

export const COLABORADORES_PROJECTION = 'colaboradores';
export const STAFF = 'staff';

export const colaboradoresProjection: Projection = {
  name: COLABORADORES_PROJECTION,
  version: 1,
  collections: {
    [STAFF]: [
      { keys: { tenantId: 1, sortName: 1, id: 1 }, name: 'by_name' },
      { keys: { tenantId: 1, status: 1, sortName: 1, id: 1 }, name: 'by_status_name' },
      { keys: { tenantId: 1, positionId: 1, sortName: 1, id: 1 }, name: 'by_position_name' },
      { keys: { tenantId: 1, licenceExpiresOn: 1, id: 1 }, name: 'by_licence_expiry' },
      { keys: { tenantId: 1, userId: 1 }, name: 'by_user' },
    ],
  },
  eventTypes: STAFF_EVENT_TYPES,
  handle(event, tx) {
    const id = event.streamName.slice(event.streamName.indexOf('-') + 1);
    return applyFold<StaffDoc>(tx, STAFF, tenantOfStream(event.streamName), id, event, foldStaff);
  },
};
