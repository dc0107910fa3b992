// Shapes used more than once in the OpenAPI document become named components referenced by $ref, so the contract
// stays small and generated clients get named types. The route declarations are never touched: the service
// validates with them, the document is a copy.
import { canonicalJson } from './idempotency.js';

type Obj = Record<string, unknown>;

// Where JSON Schema 2020-12 keeps subschemas: by name, by position, or alone.
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const SCHEMA_ONE = [
  'items',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
];

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

// Two schemas are the same shape when their canonical texts (sorted keys) are equal.
export { canonicalJson };

/** A copy of `schema` with each subschema passed through `f` (the keyword and, for maps and lists, the key). */
function mapChildren(schema: Obj, f: (child: unknown, hint: string, keyword: string) => unknown): Obj {
  const out: Obj = { ...schema };
  for (const k of SCHEMA_MAPS)
    if (isObj(schema[k])) out[k] = Object.fromEntries(Object.entries(schema[k]).map(([name, s]) => [name, f(s, name, k)]));
  for (const k of SCHEMA_LISTS) if (Array.isArray(schema[k])) out[k] = (schema[k] as unknown[]).map((s, i) => f(s, String(i + 1), k));
  for (const k of SCHEMA_ONE) if (isObj(schema[k])) out[k] = f(schema[k], k, k);
  return out;
}

const typeOfValue = (v: unknown): string =>
  v === null ? 'null' : Number.isInteger(v) ? 'integer' : typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : 'string';

/** A copy of `schema` where every enum says its type, read from its values (all strings: string; mixed: the list). */
export function typedEnums<T>(schema: T): T {
  if (!isObj(schema)) return schema;
  const out = mapChildren(schema, (child) => typedEnums(child));
  if (Array.isArray(schema.enum) && schema.type === undefined) {
    const types = [...new Set(schema.enum.map(typeOfValue))];
    // An integer enum that also holds a fraction is a number enum.
    const merged = types.includes('number') ? types.filter((t) => t !== 'integer') : types;
    out.type = merged.length === 1 ? merged[0] : merged;
    // Keep `type` next to `enum` for readers: rebuild with type first.
    return { type: out.type, ...out } as T;
  }
  return out as T;
}

// What a reference `{"$ref":"#/components/schemas/Name"}` costs, about.
const REF_COST = 45;
// A field is named when it recurs (at least this often) and naming it saves this many bytes: fewer, telling names.
const FIELD_USES = 3;
const FIELD_SAVING = 100;

// Worth a name: an object with properties, or a long choice or enum; a short string or number schema costs
// about as much as a $ref and reads better inline.
function worthNaming(schema: Obj, canonical: string): boolean {
  if (nullableOptions(schema)) return false;
  if (isObj(schema.properties) && Object.keys(schema.properties).length > 0) return true;
  return (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf) || Array.isArray(schema.enum)) && canonical.length > 60;
}

// `anyOf: [X, { type: 'null' }]`: X is the shape (named after the property), the wrapper only says it may be null.
function nullableOptions(schema: Obj): 'anyOf' | 'oneOf' | null {
  for (const k of ['anyOf', 'oneOf'] as const) {
    const options = schema[k];
    if (Array.isArray(options) && options.length === 2 && options.some((o) => isObj(o) && o.type === 'null' && Object.keys(o).length === 1))
      return k;
  }
  return null;
}

const pascal = (s: string): string =>
  s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('') || 'Schema';

/** Where a schema sits in the document: the name its parent has (or would have) and its own key there. */
export interface SchemaPlace {
  /** A name for a top-level schema, from its operation (getPacientesById + Body / Response / a parameter). */
  name: string;
}

export interface Hoister {
  /** Counts the shapes of a schema that will be rewritten (call for every schema before any `rewrite`). */
  count(schema: unknown): void;
  /** The schema with each shared shape replaced by a $ref to its component. */
  rewrite(schema: unknown, place: SchemaPlace): unknown;
  /** The components made so far (those seeded first). */
  components(): Record<string, Obj>;
}

/**
 * Names shared shapes: a schema's `title` or `$id` first, then `knownName` (the declaration's exported name), then its
 * property name (Address, then PatientViewAddress on a clash), then its place in the operation; a page is named after
 * its items (PatientViewPage).
 */
export function schemaHoister(seeds: Record<string, Obj>, knownName: (canonical: string) => string | undefined): Hoister {
  const uses = new Map<string, number>();
  const nameOf = new Map<string, string>();
  const components: Record<string, Obj> = {};
  for (const [name, schema] of Object.entries(seeds)) {
    components[name] = schema;
    nameOf.set(canonicalJson(schema), name);
  }
  const canon = new WeakMap<Obj, string>();
  const canonicalOf = (s: Obj): string => {
    let c = canon.get(s);
    if (c === undefined) canon.set(s, (c = canonicalJson(s)));
    return c;
  };

  // The property names a shape is found under: a field used under one name only (nextCursor) is named after it.
  // Fields are counted once per shape they sit in (a shared shape is written once), shapes at every use.
  const keys = new Map<string, Set<string | null>>();
  const fieldUses = new Map<string, number>();
  const countAt = (schema: unknown, key: string | null, firstSight: boolean): void => {
    if (!isObj(schema)) return;
    const c = canonicalOf(schema);
    const seen = uses.has(c) || fieldUses.has(c);
    if (worthNaming(schema, c)) uses.set(c, (uses.get(c) ?? 0) + 1);
    else if (firstSight && !nullableOptions(schema)) {
      fieldUses.set(c, (fieldUses.get(c) ?? 0) + 1);
      if (!keys.has(c)) keys.set(c, new Set());
      keys.get(c)!.add(key);
    }
    const inside = firstSight && !(seen && isObj(schema.properties));
    mapChildren(schema, (child, k, keyword) => countAt(child, SCHEMA_MAPS.includes(keyword) ? k : null, inside));
  };
  const count = (schema: unknown): void => countAt(schema, null, true);

  // A field (string, number...) is named when it is declared with a name (DateSchema) or always found under one
  // property name, and its references cost less than writing it out at each use.
  const fieldName = (c: string): string | undefined => {
    const known = knownName(c);
    const [only, ...more] = keys.get(c) ?? [];
    const name = known ?? (more.length === 0 && only ? pascal(only) : undefined);
    const n = fieldUses.get(c) ?? 0;
    return name && n >= FIELD_USES && (c.length - REF_COST) * n - c.length > FIELD_SAVING ? name : undefined;
  };

  const isTaken = (n: string): boolean => n in components || [...nameOf.values()].includes(n);
  const freeName = (candidates: string[]): string => {
    const taken = isTaken;
    for (const n of candidates) if (!taken(n)) return n;
    for (let i = 2; ; i++) if (!taken(`${candidates[0]}${i}`)) return `${candidates[0]}${i}`;
  };

  const nameFor = (schema: Obj, c: string, hint: string | null, parent: string): string => {
    const declared = [schema.title, schema.$id].find((v): v is string => typeof v === 'string');
    const known = declared ? pascal(declared.replace(/^.*[/#]/, '')) : knownName(c);
    if (known) return freeName([known]);
    const items = isObj(schema.properties) && isObj(schema.properties.items) ? schema.properties.items.items : undefined;
    if (isObj(schema.properties) && 'nextCursor' in schema.properties && isObj(items)) {
      const ref = rewrite(items, { name: `${parent}Item` }) as Obj;
      if (typeof ref.$ref === 'string') return freeName([`${ref.$ref.split('/').pop()}Page`]);
    }
    if (!hint) return freeName([parent]);
    if (hint === 'Item') return freeName([`${parent}Item`]); // an array's items
    // An object is a thing of its own (Address, BloodPressure); an enum or a choice reads with its owner (PatientViewStatus).
    const own = [pascal(hint), `${parent}${pascal(hint)}`];
    return freeName(isObj(schema.properties) ? own : own.reverse());
  };

  const rewriteIn = (schema: Obj, name: string): Obj =>
    mapChildren(schema, (child, key, keyword) => {
      const hint = SCHEMA_MAPS.includes(keyword) ? key : keyword === 'items' ? 'Item' : null;
      return rewriteAt(child, hint, hint === null ? `${name}${pascal(key)}` : name);
    });

  const rewriteAt = (schema: unknown, hint: string | null, parent: string): unknown => {
    if (!isObj(schema)) return schema;
    const c = canonicalOf(schema);
    const known = nameOf.get(c);
    if (known) return { $ref: `#/components/schemas/${known}` };
    const nullable = nullableOptions(schema);
    if (nullable) return { ...schema, [nullable]: (schema[nullable] as unknown[]).map((o) => rewriteAt(o, hint, parent)) };
    const shape = worthNaming(schema, c);
    const field = shape ? undefined : fieldName(c);
    if (shape ? (uses.get(c) ?? 0) < 2 : !field) return rewriteIn(schema, hint ? `${parent}${pascal(hint)}` : parent);
    if (field && !shape && isTaken(field)) return rewriteIn(schema, parent); // a field's name is its own or none
    const name = field ? field : nameFor(schema, c, hint, parent);
    nameOf.set(c, name);
    components[name] = {}; // reserved while its own children are named
    components[name] = rewriteIn(schema, name);
    return { $ref: `#/components/schemas/${name}` };
  };

  const rewrite = (schema: unknown, place: SchemaPlace): unknown => rewriteAt(schema, null, place.name);

  return { count, rewrite, components: () => components };
}
