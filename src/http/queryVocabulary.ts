// One query vocabulary: a query parameter is named after the JSON field it filters on (English camelCase, like the
// bodies and answers). The Spanish names of before stay accepted for one version as deprecated aliases: a route
// lists the old names it took (`legacyQuery`), the contract declares them `deprecated`, and the pipeline folds them
// into the new name before validation, so handlers, cursors and audits see only the new names.
import type { FieldError } from '../problems.js';

type JsonSchema = Record<string, unknown>;
/** What of a route declaration the aliases read (routeTypes.ts declares routes through withQueryAliases). */
interface QueryDecl {
  method: string;
  path: string;
  query?: JsonSchema;
  legacyQuery?: readonly string[];
}

/** Old query name -> its new name; the only place an old name is spelled. */
export const QUERY_ALIASES: Readonly<Record<string, string>> = {
  estado: 'status',
  pacienteId: 'patientId',
  sedeId: 'locationId',
  almacenId: 'warehouseId',
  turnoId: 'shiftId',
  cargoId: 'positionId',
  desde: 'from',
  hasta: 'to',
  fecha: 'date',
  mes: 'month',
  formato: 'format',
  dias: 'days',
  margen: 'margin',
  membresia: 'membership',
  licencia: 'licence',
  pmVenceEnDias: 'maintenanceDueInDays',
  activo: 'active',
  bajoMinimo: 'belowMinimum',
  categoria: 'category',
  tipo: 'payerType',
  servicio: 'serviceCode',
};

/** Every query name of the service: a new parameter joins this list, in English camelCase, after its JSON field. */
const QUERY_NAMES: ReadonlySet<string> = new Set([
  ...Object.values(QUERY_ALIASES),
  ...['q', 'sort', 'order', 'limit', 'cursor', 'minPosition', 'at', 'userId', 'asOf', 'version', 'updatedSince'],
  ...['recordType', 'recordId', 'actor', 'action', 'outcome', 'route'], // the audit trail's filters
  ...['type', 'wait'], // the change feed's event type filter and long-poll
  'module', // a company module's code (Generador): the module-records widget
  ...['state', 'archived'], // a Generador module's records (the record view's fields)
]);

export const isVocabularyName = (name: string): boolean => QUERY_NAMES.has(name);

type Props = Record<string, JsonSchema>;

/** The route with each old name it still takes declared in its query schema as a deprecated copy of the new one. */
export function withQueryAliases<R extends QueryDecl>(decl: R): R {
  const legacy = decl.legacyQuery ?? [];
  if (legacy.length === 0) return decl;
  const label = `${decl.method.toUpperCase()} ${decl.path}`;
  const props = (decl.query?.properties ?? {}) as Props;
  const added: Props = {};
  for (const old of legacy) {
    const name = QUERY_ALIASES[old];
    if (!name || !props[name]) throw new Error(`${label}: legacy query name '${old}' has no new name in its query schema`);
    const { description: _description, ...schema } = props[name];
    added[old] = {
      ...schema,
      deprecated: true,
      description: `Deprecated (kept for one version): the old name of \`${name}\`; send \`${name}\`.`,
    };
  }
  return { ...decl, query: { ...decl.query, properties: { ...props, ...added } } };
}

const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Moves each old name the request sent to its new name (in place); an old and a new name sent with different
 * values is a problem naming the old one, never a silent choice.
 */
export function foldLegacyQuery(route: Pick<QueryDecl, 'legacyQuery'>, query: Record<string, unknown>): FieldError[] {
  const problems: FieldError[] = [];
  for (const old of route.legacyQuery ?? []) {
    if (query[old] === undefined) continue;
    const name = QUERY_ALIASES[old]!;
    if (query[name] !== undefined && !sameValue(query[name], query[old])) {
      problems.push({ pointer: `/query/${old}`, message: `conflicts with '${name}' (its new name): send only '${name}'` });
      continue;
    }
    query[name] = query[old];
    delete query[old];
  }
  return problems;
}
