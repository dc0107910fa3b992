// The Empresas group: the platform registers, lists and suspends companies; a company admin reads and corrects their
// own company, its policy and its locations (sedes, rooms, stations).
import type { GroupModule } from '../../groupModule.js';
import { empresasProjection } from '../../../projections/empresas/empresasProjection.js';
import { companyRoutes } from './companyRoutes.js';
import { locationRoutes } from './locationRoutes.js';
import { policyRoutes } from './policyRoutes.js';
import { roomAndStationRoutes } from './roomStationRoutes.js';
import { ADMIN, READ, TAG } from './support.js';

export const empresasGroup: GroupModule = {
  tag: TAG,
  description:
    'Companies (tenants): the platform registers them (tax id checked with its check digit: RUC, RFC, NIT, RUT, CUIT) with a first ' +
    'company admin, lists, suspends (writes refused, reads kept for audit) and reactivates them; a company admin reads and corrects ' +
    "the profile and switches optional modules. The selected company's policy (clinical and administrative settings other groups decide with, versioned: each change with who, " +
    'when, why and the fields it changed) and its locations (sedes) with rooms (salas) and dialysis stations (puestos). Changes take ' +
    'If-Match; writes answer ETag and X-Event-Position; reads accept minPosition to read your writes.',
  permissions: [READ, ADMIN],
  // The company routes first: '/empresas/actual' must not be taken for a company id.
  routes: [...companyRoutes, ...policyRoutes, ...locationRoutes, ...roomAndStationRoutes],
  projections: [empresasProjection],
};
