// The Colaboradores group: staff records of the company, and who may sign clinical records.
import type { GroupModule } from '../../groupModule.js';
import { colaboradoresProjection } from '../../../projections/colaboradores/colaboradoresProjection.js';
import { colaboradoresRoutes } from './routes.js';
import { READ, TAG, WRITE } from './schemas.js';

export const colaboradoresGroup: GroupModule = {
  tag: TAG,
  description:
    'Staff of the selected company: identity document (unique per company), names, job position (an active one of the company), ' +
    'profession, professional licence (required when the position requires one) with its renewals, serology and hepatitis B ' +
    'vaccination, hire and termination, contract type, and the link to a user account (one staff record per user). Lists filter ' +
    'by state, position and licence expiry; /colaboradores/firma-habilitada tells whether a user may sign clinical records.',
  permissions: [READ, WRITE],
  routes: colaboradoresRoutes,
  projections: [colaboradoresProjection],
};
