// The Pacientes group: patients, their clinical facts and nursing notes.
import type { GroupModule } from '../../groupModule.js';
import { pacientesProjection } from '../../../projections/pacientes/pacientesProjection.js';
import { NOTES, READ, TAG, WRITE } from './routeSupport.js';
import { LEGAL_HOLD } from './legalHoldRoutes.js';
import { pacientesRoutes } from './routes.js';

export const pacientesGroup: GroupModule = {
  tag: TAG,
  description:
    'Patients of the selected company: registration (identity document unique per company), corrections with If-Match, status, ' +
    'dry weight, serology and isolation, allergies, coverage, vascular accesses, nursing notes (amended, never overwritten) and the ' +
    "record's history. Writes answer the new state with its ETag and X-Event-Position; reads accept minPosition to read your writes.",
  permissions: [READ, WRITE, NOTES, LEGAL_HOLD],
  routes: pacientesRoutes,
  projections: [pacientesProjection],
};
