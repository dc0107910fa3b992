// The CargosLaborales group: the company's job positions (never deleted: deactivated).
import type { GroupModule } from '../../groupModule.js';
import { cargosProjection } from '../../../projections/cargos-laborales/cargosProjection.js';
import { READ, TAG, WRITE } from './schemas.js';
import { cargosRoutes } from './routes.js';

export const cargosLaboralesGroup: GroupModule = {
  tag: TAG,
  description:
    'Job positions of the selected company: code (unique per company, compared trimmed and ignoring case), name, clinical flag, ' +
    'licence requirement and licensing body, suggested roles. Positions are never deleted: a deactivated position stays with the ' +
    'staff who hold it but cannot be given to new staff. Corrections take If-Match; every change is in the history.',
  permissions: [READ, WRITE],
  routes: cargosRoutes,
  projections: [cargosProjection],
};
