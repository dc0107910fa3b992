// The FiltrosDialisis group: dialyzers, their reprocessing cycles, pre-use checks and uses under the company's reuse policy.
import type { GroupModule } from '../../groupModule.js';
import { filtrosProjection } from '../../../projections/filtros-dialisis/filtrosProjection.js';
import { READ, TAG, WRITE } from './schemas.js';
import { readRoutes } from './readRoutes.js';
import { writeRoutes } from './writeRoutes.js';

export const filtrosDialisisGroup: GroupModule = {
  tag: TAG,
  description:
    'Dialyzers of the selected company: received in stock (serial unique per company), assigned to one patient for life with its ' +
    'baseline TCV, reprocessed, checked before each use and used, under the company policy (dialyzerReuse). Discarded is final. ' +
    'Floor queries: ready for a patient (with why not), alerts, a printable label (PDF with a QR code).',
  permissions: [READ, WRITE],
  routes: [...writeRoutes, ...readRoutes],
  projections: [filtrosProjection],
};
