// What the /clientes routes share: the client's route kit (its 404 and write answer), and the 404 of what hangs under a
// client (a contract, an authorization).
import { problem } from '../../commonSchemas.js';
import { clientModel, clientView } from '../../../queries/clientes/clients.js';
import { recordKit } from '../shared/recordRoutes.js';
import { ClientView, READ, TAG, WRITE } from './schemas.js';

export const clients = recordKit({
  tag: TAG,
  base: '/clientes',
  read: READ,
  write: WRITE,
  noun: 'client',
  model: clientModel,
  view: clientView,
  viewSchema: ClientView,
});

export const underClient404 = problem(
  "No such client (contract, authorization) in the selected company (another company's is reported the same way)",
);
