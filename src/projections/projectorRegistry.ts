// Every projection, for the projector thread (PROJECTIONS_THREAD=auto|worker): loading these alone takes a tenth of the time
// of loading the groups (src/http/groups.ts: routes, schemas), which the thread does not need. The main thread sends
// the names and versions its groups registered; the thread refuses to start if one is missing here or differs.
import type { Projection } from './runner/projection.js';
import { cargosProjection } from './cargos-laborales/cargosProjection.js';
import { clientesProjection } from './clientes/clientesProjection.js';
import { colaboradoresProjection } from './colaboradores/colaboradoresProjection.js';
import { prescriptionsProjection } from './dialisis/prescriptionsProjection.js';
import { scheduleProjection } from './dialisis/scheduleProjection.js';
import { sessionsProjection as dialysisSessionsProjection } from './dialisis/sessionsProjection.js';
import { empresasProjection } from './empresas/empresasProjection.js';
import { filtrosProjection } from './filtros-dialisis/filtrosProjection.js';
import { moduleRecordsProjection } from './generador/moduleRecordsProjection.js';
import { modulesProjection } from './generador/modulesProjection.js';
import { lineasProjection } from './lineas/lineasProjection.js';
import { monitoresProjection } from './monitores/monitoresProjection.js';
import { pacientesProjection } from './pacientes/pacientesProjection.js';
import { apiClientsProjection } from './platform/apiClientsProjection.js';
import { companiesProjection } from './platform/companiesProjection.js';
import { sessionsProjection as platformSessionsProjection } from './platform/sessionsProjection.js';
import { usersProjection } from './platform/usersProjection.js';
import { kitProjection } from './productos/kitProjection.js';
import { productosProjection } from './productos/productosProjection.js';
import { auditProjection } from './sistema/auditProjection.js';
import { webhookProjection } from './sistema/webhookProjection.js';
import { WIDGET_PROJECTIONS } from '../queries/widgets/widgetCatalog.js';

export const PROJECTOR_REGISTRY: readonly Projection[] = [
  usersProjection,
  platformSessionsProjection,
  companiesProjection,
  apiClientsProjection,
  auditProjection,
  webhookProjection,
  pacientesProjection,
  empresasProjection,
  cargosProjection,
  colaboradoresProjection,
  dialysisSessionsProjection,
  prescriptionsProjection,
  scheduleProjection,
  filtrosProjection,
  monitoresProjection,
  lineasProjection,
  clientesProjection,
  productosProjection,
  kitProjection,
  modulesProjection,
  moduleRecordsProjection,
  ...WIDGET_PROJECTIONS,
];

/** The registry's projections for the names and versions the main thread registered, in its order; throws on a gap. */
export function projectionsFor(expected: readonly (readonly [name: string, version: number])[]): Projection[] {
  const byName = new Map(PROJECTOR_REGISTRY.map((projection) => [projection.name, projection]));
  return expected.map(([name, version]) => {
    const projection = byName.get(name);
    if (!projection || projection.version !== version)
      throw new Error(`the projector thread has no projection '${name}' v${version}: add it to src/projections/projectorRegistry.ts`);
    return projection;
  });
}
