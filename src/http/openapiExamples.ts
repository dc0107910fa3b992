// A deterministic example value for a JSON Schema, so every operation of the contract carries a request and an
// answer that Try-it can send as is: const, then the first enum value, format-based values, bounds respected, the
// required properties plus a few optional ones. A test validates each example with the service's Ajv setup.
import { patternCandidates } from './openapiPatternExample.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const FORMATS: Record<string, string> = {
  date: '2026-01-15',
  'date-time': '2026-01-15T08:30:00.000Z',
  time: '08:30:00Z',
  uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  email: 'ana.perez@clinic.example',
  uri: 'https://clinic.example/resource',
  'uri-reference': '/resource',
  hostname: 'clinic.example',
  ipv4: '192.0.2.10',
  ipv6: '2001:db8::10',
  duration: 'PT4H',
};

// Candidates tried, in order, for a pattern; the first the pattern accepts (and the length bounds allow) wins.
const PATTERN_TRIES = [
  'c1.AAAA',
  'ABC-123',
  'abc',
  'ABC',
  'A1',
  '123',
  '1',
  '12345678',
  'a',
  'A',
  '2026-01-15',
  '2026-01',
  '08:30',
  '+573001234567',
  '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  'W/"1"',
  '"1"',
  'admin',
  'pacientes:read',
  'example',
];

function stringFor(schema: Obj, hint: string): string {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  const fits = (s: string) => s.length >= min && s.length <= max;
  if (typeof schema.format === 'string' && FORMATS[schema.format]) return FORMATS[schema.format]!;
  if (typeof schema.pattern === 'string') {
    const re = new RegExp(schema.pattern, 'u');
    const found = [hint, ...patternCandidates(schema.pattern), ...PATTERN_TRIES].find((s) => re.test(s) && fits(s));
    if (found !== undefined) return found;
  }
  let s = hint || 'example';
  if (s.length > max) s = s.slice(0, max);
  while (s.length < min) s += 'x';
  return s;
}

function numberFor(schema: Obj, integer: boolean): number {
  const step = typeof schema.multipleOf === 'number' ? schema.multipleOf : integer ? 1 : 0;
  let lo = typeof schema.minimum === 'number' ? schema.minimum : -Infinity;
  if (typeof schema.exclusiveMinimum === 'number') lo = Math.max(lo, schema.exclusiveMinimum + (step || 0.5));
  let hi = typeof schema.maximum === 'number' ? schema.maximum : Infinity;
  if (typeof schema.exclusiveMaximum === 'number') hi = Math.min(hi, schema.exclusiveMaximum - (step || 0.5));
  let n = lo > -Infinity ? lo : hi < Infinity ? Math.min(hi, 1) : 1;
  if (step) n = Math.ceil(n / step - 1e-9) * step;
  if (integer) n = Math.ceil(n);
  // A float multiple (0.1) is rounded to its decimals so 0.30000000000000004 does not fail multipleOf.
  return step && !Number.isInteger(step) ? Number(n.toFixed(String(step).split('.')[1]?.length ?? 0)) : n;
}

/** How many optional properties an object example fills besides the required ones. */
const OPTIONAL_SHOWN = 1;

/** An example value for `schema`; `resolve` reads a `#/components/schemas/...` reference. */
export function exampleFor(schema: unknown, resolve: (ref: string) => unknown, hint = '', depth = 0): unknown {
  if (schema === true || !isObj(schema)) return null;
  if (typeof schema.$ref === 'string') return exampleFor(resolve(schema.$ref), resolve, hint, depth);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const options = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(options)) {
    // The first option that is not only null: an example shows a value.
    const pick = options.find((o) => !(isObj(o) && o.type === 'null')) ?? options[0];
    return exampleFor({ ...schema, anyOf: undefined, oneOf: undefined, ...(pick as Obj) }, resolve, hint, depth);
  }
  if (Array.isArray(schema.allOf)) {
    const merged = (schema.allOf as Obj[]).reduce<Obj>((acc, part) => ({ ...acc, ...part }), { ...schema, allOf: undefined });
    return exampleFor(merged, resolve, hint, depth);
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  const type = types.find((t) => t !== 'null') ?? types[0] ?? (isObj(schema.properties) ? 'object' : undefined);
  switch (type) {
    case 'string':
      return stringFor(schema, hint);
    case 'integer':
      return numberFor(schema, true);
    case 'number':
      return numberFor(schema, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      if (depth > 8) return [];
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      // One item in a top-level list, as few as allowed deeper (a page shows none): each shape has its own example.
      const count = Math.max(min, depth === 0 && schema.maxItems !== 0 ? 1 : 0);
      return Array.from({ length: count }, () => exampleFor(schema.items ?? {}, resolve, hint, depth + 1));
    }
    case 'object':
    case undefined: {
      const props = isObj(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
      const optional = Object.keys(props).filter((k) => !required.includes(k));
      const out: Obj = {};
      for (const name of [...required, ...(depth > 4 ? [] : optional.slice(0, OPTIONAL_SHOWN))])
        if (name in props) out[name] = exampleFor(props[name], resolve, name, depth + 1);
      return out;
    }
    default:
      return null;
  }
}
