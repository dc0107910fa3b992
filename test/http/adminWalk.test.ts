// The administration groups' routes, walked from their declarations (routeWalk.ts): 403 without the permission, 404 for
// another company's records, their OpenAPI entries complete.
import { describeRouteWalk } from './routeWalk.js';
import { seedCompanyRecords } from './adminSeeds.js';

describeRouteWalk({
  title: 'Administration routes: isolation and permissions from the declarations',
  tags: ['Empresas', 'Usuarios', 'Roles', 'CargosLaborales', 'Colaboradores'],
  minRoutes: 40,
  seed: seedCompanyRecords,
});
