// Every resource group of the service, one line each. Sistema lists them all in /openapi.json, so the
// registry is a factory: each running server gets its own group instances.
import type { GroupModule } from './groupModule.js';
import { sistemaGroup } from './routes/sistema/index.js';
import { authGroup } from './routes/auth/index.js';
import { pacientesGroup } from './routes/pacientes/index.js';
import { empresasGroup } from './routes/empresas/index.js';
import { cargosLaboralesGroup } from './routes/cargos-laborales/index.js';
import { colaboradoresGroup } from './routes/colaboradores/index.js';
import { usuariosGroup } from './routes/usuarios/index.js';
import { rolesGroup } from './routes/roles/index.js';
import { dialisisGroup } from './routes/dialisis/index.js';
import { filtrosDialisisGroup } from './routes/filtros-dialisis/index.js';
import { monitoresGroup } from './routes/monitores/index.js';
import { lineasArterialGroup, lineasVenosaGroup } from './routes/lineas/index.js';
import { clientesGroup } from './routes/clientes/index.js';
import { productosGroup } from './routes/productos/index.js';
import { widgetsGroup } from './routes/widgets/index.js';
import { generadorGroup } from './routes/generador/index.js';

export function registeredGroups(): GroupModule[] {
  const groups: GroupModule[] = [];
  groups.push(
    sistemaGroup(() => groups),
    authGroup,
    pacientesGroup,
    empresasGroup,
    usuariosGroup,
    rolesGroup,
    cargosLaboralesGroup,
    colaboradoresGroup,
    dialisisGroup,
    filtrosDialisisGroup,
    monitoresGroup,
    lineasArterialGroup,
    lineasVenosaGroup,
    clientesGroup,
    productosGroup,
    widgetsGroup,
    generadorGroup,
  );
  return groups;
}
