// The equipment groups' routes, walked from their declarations (routeWalk.ts): 403 without the permission (a
// receptionist's role among them), 404 for another company's machines, dialyzers and lines, OpenAPI entries complete.
import { describeRouteWalk } from './routeWalk.js';
import { seedEquipment } from './equipmentSeeds.js';

describeRouteWalk({
  title: 'Equipment routes: isolation and permissions from the declarations',
  tags: ['Monitores', 'FiltrosDialisis', 'LineasArterial', 'LineasVenosa'],
  minRoutes: 40,
  seed: seedEquipment,
});
