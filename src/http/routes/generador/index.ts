// The Generador group: companies define their own record modules at run time (fields, states, signing, versions) and
// get, for each published module, the routes, validation, events, history, audit and contract of a built-in group.
import type { GroupModule } from '../../groupModule.js';
import { modulesProjection } from '../../../projections/generador/modulesProjection.js';
import { moduleRecordsProjection } from '../../../projections/generador/moduleRecordsProjection.js';
import { READ, TAG, WRITE } from './names.js';
import { moduleRoutes } from './moduleRoutes.js';
import { contractRoutes } from './contractRoutes.js';
import { recordRoutes } from './recordRoutes.js';

export const generadorGroup: GroupModule = {
  tag: TAG,
  description:
    "The company's own record modules: definitions (/generador/modulos: fields, which of them list, filter and sort, states " +
    'with a signing step, draft, published and retired, versions with the mapping of older records) and, for each published ' +
    'module, its records under /generador/m/{code}, described for the company in /generador/openapi.json.',
  permissions: [READ, WRITE],
  routes: [...moduleRoutes, ...recordRoutes, ...contractRoutes],
  projections: [modulesProjection, moduleRecordsProjection],
};
