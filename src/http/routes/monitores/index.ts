// The Monitores group: the company's dialysis machines, their status from their history, maintenance and tickets.
import type { GroupModule } from '../../groupModule.js';
import { monitoresProjection } from '../../../projections/monitores/monitoresProjection.js';
import { READ, TAG, WRITE } from './schemas.js';
import { machineRoutes } from './routes.js';
import { machineActionRoutes } from './actionRoutes.js';

export const monitoresGroup: GroupModule = {
  tag: TAG,
  description:
    'Dialysis machines of the selected company: code and serial (each unique per company), brand, model, station, install date, ' +
    'warranty, isolation. The status (available, in-use, awaiting-disinfection, disinfecting, preventive-maintenance, ' +
    'corrective-maintenance, out-of-service, retired) follows from the history: uses, disinfections, calibrations, preventive ' +
    'maintenance (plan per model from the company policy, by hours and/or days, whichever first), fault tickets and retirement.',
  permissions: [READ, WRITE],
  routes: [...machineRoutes, ...machineActionRoutes],
  projections: [monitoresProjection],
};
