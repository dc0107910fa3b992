// The exported names of the route schema declarations, so the document's components are named as the code names
// them (PatientView, SessionView, RegisterPatientBody). A module missing here only loses names, never a shape.
import * as commonSchemas from './commonSchemas.js';
import * as recordHistory from './recordHistoryAnswer.js';
import * as authSchemas from './routes/auth/schemas.js';
import * as cargosLaboralesSchemas from './routes/cargos-laborales/schemas.js';
import * as clientesSchemas from './routes/clientes/schemas.js';
import * as colaboradoresSchemas from './routes/colaboradores/schemas.js';
import * as dialisisClinicalSchemas from './routes/dialisis/clinicalSchemas.js';
import * as dialisisPrescriptionSchemas from './routes/dialisis/prescriptionSchemas.js';
import * as dialisisScheduleSchemas from './routes/dialisis/scheduleSchemas.js';
import * as dialisisSessionSchemas from './routes/dialisis/sessionSchemas.js';
import * as dialisisSessionView from './routes/dialisis/sessionViewSchema.js';
import * as empresasCompanySchemas from './routes/empresas/companySchemas.js';
import * as empresasLocationSchemas from './routes/empresas/locationSchemas.js';
import * as empresasPolicySchemas from './routes/empresas/policySchemas.js';
import * as filtrosDialisisSchemas from './routes/filtros-dialisis/schemas.js';
import * as lineasSchemas from './routes/lineas/schemas.js';
import * as monitoresSchemas from './routes/monitores/schemas.js';
import * as pacientesPatientSchemas from './routes/pacientes/patientSchemas.js';
import * as pacientesViewSchemas from './routes/pacientes/viewSchemas.js';
import * as productosSchemas from './routes/productos/schemas.js';
import * as sharedFieldSchemas from './routes/shared/fieldSchemas.js';
import * as sistemaSchemas from './routes/sistema/schemas.js';
import * as usuariosSchemas from './routes/usuarios/schemas.js';
import { canonicalJson, typedEnums } from './openapiComponents.js';

const MODULES: readonly Record<string, unknown>[] = [
  commonSchemas,
  recordHistory,
  authSchemas,
  cargosLaboralesSchemas,
  clientesSchemas,
  colaboradoresSchemas,
  dialisisClinicalSchemas,
  dialisisPrescriptionSchemas,
  dialisisScheduleSchemas,
  dialisisSessionSchemas,
  dialisisSessionView,
  empresasCompanySchemas,
  empresasLocationSchemas,
  empresasPolicySchemas,
  filtrosDialisisSchemas,
  lineasSchemas,
  monitoresSchemas,
  pacientesPatientSchemas,
  pacientesViewSchemas,
  productosSchemas,
  sharedFieldSchemas,
  sistemaSchemas,
  usuariosSchemas,
];

const isSchema = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && ('type' in v || 'properties' in v || 'anyOf' in v || 'enum' in v);

let names: Map<string, string> | null = null;

/** The exported name of the declaration with this shape (its canonical JSON, enums typed), without a `Schema` suffix. */
export function declaredSchemaName(canonical: string): string | undefined {
  if (!names) {
    names = new Map();
    for (const mod of MODULES)
      for (const [name, value] of Object.entries(mod)) {
        const key = isSchema(value) ? canonicalJson(typedEnums(value)) : null;
        if (key && /^[A-Z]/.test(name) && !names.has(key)) names.set(key, name.replace(/Schema$/, '') || name);
      }
  }
  return names.get(canonical);
}
