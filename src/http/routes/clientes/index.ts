// The Clientes group: payers, their contracts (rate per session in force on a date) and authorizations per patient.
import { reportRoute } from './reportRoute.js';
import type { GroupModule } from '../../groupModule.js';
import { clientesProjection } from '../../../projections/clientes/clientesProjection.js';
import { READ, TAG, WRITE } from './schemas.js';
import { clientRoutes } from './clientRoutes.js';
import { contractRoutes } from './contractRoutes.js';
import { authorizationRoutes } from './authorizationRoutes.js';

export const clientesGroup: GroupModule = {
  tag: TAG,
  description:
    'Payers of the selected company (social security, public and private insurers, employers, self-pay): tax id checked with ' +
    'its check digit and unique per company, fiscal address, contacts, status. Contracts per client and service (one at a ' +
    'time), rate per session as a decimal string with currency and tax flag, what it includes, authorization rules. ' +
    'Authorizations per patient: code unique per client, period, sessions authorized, used and remaining; one unit per session.',
  permissions: [READ, WRITE],
  routes: [...clientRoutes, ...contractRoutes, ...authorizationRoutes, reportRoute],
  projections: [clientesProjection],
};
