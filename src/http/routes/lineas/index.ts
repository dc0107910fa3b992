// The LineasArterial and LineasVenosa groups: one implementation, two groups (paths, tags and permissions of their own).
import type { GroupModule } from '../../groupModule.js';
import { lineasProjection } from '../../../projections/lineas/lineasProjection.js';
import { lineRoutes, type LineGroupConfig } from './routes.js';
import { pairingRoute } from './pairingRoute.js';

const description = (noun: string) =>
  `${noun} of the selected company: model, lot, serial (unique per company), priming volume, reusable flag. Received into stock, ` +
  'assigned to one patient for life, used, reprocessed only when the company policy enables bloodline reuse (single use otherwise), ' +
  'and discarded (terminal) with a reason. Floor queries: ready for the next session, near the maximum; every change is in the history.';

const arterial: LineGroupConfig = {
  lineType: 'arterial',
  tag: 'LineasArterial',
  base: '/lineas-arteriales',
  read: 'lineas-arteriales:read',
  write: 'lineas-arteriales:write',
  noun: 'arterial line',
};

const venous: LineGroupConfig = {
  lineType: 'venous',
  tag: 'LineasVenosa',
  base: '/lineas-venosas',
  read: 'lineas-venosas:read',
  write: 'lineas-venosas:write',
  noun: 'venous line',
};

export const lineasArterialGroup: GroupModule = {
  tag: arterial.tag,
  description: `${description('Arterial bloodlines')} An arterial line is paired with a venous line of the same patient.`,
  permissions: [arterial.read, arterial.write],
  routes: [...lineRoutes(arterial), pairingRoute(arterial)],
  projections: [lineasProjection],
};

export const lineasVenosaGroup: GroupModule = {
  tag: venous.tag,
  description: description('Venous bloodlines'),
  permissions: [venous.read, venous.write],
  routes: lineRoutes(venous),
  // The arterial group registers the shared projection.
  projections: [],
};
