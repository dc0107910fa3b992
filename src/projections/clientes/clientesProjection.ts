// Read model of the Clientes group: payers with their contracts, and payer authorizations per patient.
import { CLIENT_EVENT_TYPES, CLIENT_CATEGORY } from '../../commands/clientes/clientEvents.js';
import { AUTHORIZATION_EVENT_TYPES, AUTHORIZATION_CATEGORY } from '../../commands/clientes/authorizationEvents.js';
import { applyFold, type Projection } from '../runner/projection.js';
import { categoryOfStream, tenantOfStream } from '../../stores/eventStore.js';
import { foldClient, idOfStream, type ClientDoc } from './clientDoc.js';
import { foldAuthorization, type AuthorizationDoc } from './authorizationDoc.js';

export const CLIENTES_PROJECTION = 'clientes';
export const CLIENTS = 'clients';
export const PAYER_AUTHORIZATIONS = 'payerAuthorizations';

export const clientesProjection: Projection = {
  name: CLIENTES_PROJECTION,
  version: 1,
  collections: {
    [CLIENTS]: [
      { keys: { tenantId: 1, nameKey: 1, id: 1 }, name: 'by_name' },
      { keys: { tenantId: 1, status: 1, nameKey: 1, id: 1 }, name: 'by_status_name' },
    ],
    [PAYER_AUTHORIZATIONS]: [
      { keys: { tenantId: 1, clientId: 1, validFrom: 1, id: 1 }, name: 'by_client' },
      { keys: { tenantId: 1, patientId: 1, validFrom: 1, id: 1 }, name: 'by_patient' },
    ],
  },
  eventTypes: [...CLIENT_EVENT_TYPES, ...AUTHORIZATION_EVENT_TYPES],
  handle(event, tx) {
    const tenantId = tenantOfStream(event.streamName);
    const id = idOfStream(event.streamName);
    // Only this group's streams: another group may one day reuse an event name.
    switch (categoryOfStream(event.streamName)) {
      case CLIENT_CATEGORY:
        return applyFold<ClientDoc>(tx, CLIENTS, tenantId, id, event, foldClient);
      case AUTHORIZATION_CATEGORY:
        return applyFold<AuthorizationDoc>(tx, PAYER_AUTHORIZATIONS, tenantId, id, event, foldAuthorization);
      default:
        return undefined;
    }
  },
};
