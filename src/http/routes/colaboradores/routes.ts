// Every route of the Colaboradores group, in the order the OpenAPI document lists them.
import type { RouteDecl } from '../../routeTypes.js';
import { actionRoutes } from './actionRoutes.js';
import { staffRoutes } from './staffRoutes.js';

export const colaboradoresRoutes: RouteDecl[] = [...staffRoutes, ...actionRoutes];
