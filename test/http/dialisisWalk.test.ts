// The Dialisis group's routes, walked from their declarations (routeWalk.ts): 403 without the permission, 404 for
// another company's shifts, plans, sessions and patients (a patient's prescriptions answer for the patient), OpenAPI
// entries complete. The day's generation names a date, not a record: it has no 404 case.
import { describeRouteWalk } from './routeWalk.js';
import { seedDialisis } from './dialisisSeeds.js';

describeRouteWalk({
  title: 'Dialisis routes: isolation and permissions from the declarations',
  tags: ['Dialisis'],
  minRoutes: 41,
  notRecords: ['/dialisis/agenda/{fecha}'],
  seed: seedDialisis,
});
