// Every route of the Pacientes group, in the order the OpenAPI document lists them.
import type { RouteDecl } from '../../routeTypes.js';
import { clinicalRoutes } from './clinicalRoutes.js';
import { legalHoldRoutes } from './legalHoldRoutes.js';
import { listRoutes } from './listRoutes.js';
import { noteRoutes } from './noteRoutes.js';
import { patientRoutes } from './patientRoutes.js';

export const pacientesRoutes: RouteDecl[] = [...patientRoutes, ...clinicalRoutes, ...listRoutes, ...noteRoutes, ...legalHoldRoutes];
