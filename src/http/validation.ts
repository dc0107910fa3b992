// Request and response validation compiled once per route from its declaration (JSON Schema 2020-12,
// the dialect of OpenAPI 3.1). Schema violations answer 422 with one entry per violation in errors[].
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { ProblemError, type FieldError } from '../problems.js';
import type { JsonSchema, RouteDecl } from './routeTypes.js';
import { foldLegacyQuery } from './queryVocabulary.js';
import { LIMITS } from '../limits.js';
import { FREE_TEXT, TEXT_RULE, TEXT_RULE_MESSAGE, acceptableText, withTextRules, type TextMode } from './textRules.js';

const addFormats = addFormatsModule.default;

export const VALIDATION_STATUS = 422;

export type HeaderDecl = NonNullable<RouteDecl['requestHeaders']>[string];

/** The Idempotency-Key header every `idempotent` route accepts (1-255 visible ASCII characters). */
export const IDEMPOTENCY_KEY_HEADER: HeaderDecl = {
  required: false,
  description:
    `Makes a retried request safe: the first answer is stored for ${LIMITS.idempotency.ttlSeconds / 3600} h and replayed ` +
    '(with Idempotent-Replayed: true) for the same key and body; the same key with another body is a 422.',
  schema: { type: 'string', minLength: 1, maxLength: LIMITS.idempotency.keyMaxLength, pattern: '^[\\x21-\\x7E]+$' },
};

/** The request headers a route reads: those it declares plus the ones the framework adds. */
export function requestHeadersOf(route: RouteDecl): Record<string, HeaderDecl> {
  return { ...(route.idempotent ? { 'Idempotency-Key': IDEMPOTENCY_KEY_HEADER } : {}), ...(route.requestHeaders ?? {}) };
}

/** The service's Ajv setup (formats, text rule keywords); tests validate the contract's examples with it. */
export function newAjv(options: { coerce: boolean; defaults: boolean }): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    allErrors: true,
    allowUnionTypes: true,
    coerceTypes: options.coerce ? 'array' : false,
    useDefaults: options.defaults,
  });
  addFormats(ajv);
  // RFC 3339 allows a leap second (…:60) that no Date can hold: an instant the service cannot represent is refused here.
  const rfc3339 = ajv.formats['date-time'] as { validate: (s: string) => boolean };
  ajv.addFormat('date-time', { type: 'string', validate: (s: string) => rfc3339.validate(s) && Number.isFinite(Date.parse(s)) });
  ajv.addKeyword({ keyword: FREE_TEXT, schemaType: 'boolean' }); // an annotation read by withTextRules
  ajv.addKeyword({
    keyword: TEXT_RULE,
    type: 'string',
    schemaType: 'string',
    validate: (mode: TextMode, value: string) => acceptableText(value, mode),
  });
  return ajv;
}

// Strings from the URL and headers are coerced to the declared types; JSON bodies are taken as sent.
const urlAjv = newAjv({ coerce: true, defaults: true });
const bodyAjv = newAjv({ coerce: false, defaults: true });
const responseAjv = newAjv({ coerce: false, defaults: false });

const escapeToken = (t: string): string => t.replace(/~/g, '~0').replace(/\//g, '~1');

/** Ajv's errors as the 422's errors[]: a JSON pointer into the request (under `prefix`) and a message each. */
export function fieldErrors(prefix: string, errors: ErrorObject[] | null | undefined): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    const params = e.params as Record<string, unknown>;
    let pointer = `${prefix}${e.instancePath}`;
    let message = e.message ?? 'is invalid';
    if (typeof params.missingProperty === 'string') {
      pointer += `/${escapeToken(params.missingProperty)}`;
      message = 'is required';
    } else if (e.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
      pointer += `/${escapeToken(params.additionalProperty)}`;
      message = `unexpected field '${params.additionalProperty}' is not allowed`;
    } else if (e.keyword === 'unevaluatedProperties' && typeof params.unevaluatedProperty === 'string') {
      pointer += `/${escapeToken(params.unevaluatedProperty)}`;
      message = `unexpected field '${params.unevaluatedProperty}' is not allowed`;
    } else if (e.keyword === TEXT_RULE) {
      message = TEXT_RULE_MESSAGE[e.schema === 'free' ? 'free' : 'line'];
    } else if (e.keyword === 'enum' && Array.isArray(params.allowedValues)) {
      message = `must be one of: ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    }
    const key = `${pointer}\u0000${message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ pointer, message });
    }
  }
  return out;
}

export interface RequestParts {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  headers: Record<string, string | undefined>;
}

export interface RouteValidator {
  /** Validates (and coerces a copy of) the request; throws the 422 problem when anything is invalid. */
  request(raw: RequestParts): RequestParts;
  /** Violations of the declared schema of a 2xx answer (given as the JSON text sent), or [] when it conforms or declares none. */
  response(status: number, jsonText: string | undefined): FieldError[];
}

function compile(ajv: Ajv2020, schema: JsonSchema, what: string): ValidateFunction {
  try {
    return ajv.compile(schema);
  } catch (err) {
    throw new Error(`${what}: invalid JSON Schema: ${(err as Error).message}`, { cause: err });
  }
}

function headersSchema(headers: Record<string, HeaderDecl>): JsonSchema | null {
  const names = Object.keys(headers);
  if (names.length === 0) return null;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const name of names) {
    const lower = name.toLowerCase();
    properties[lower] = headers[name]!.schema ?? { type: 'string' };
    // A missing required If-Match is 428 Precondition Required (RFC 6585), answered by the handler, not 422.
    if (headers[name]!.required && lower !== 'if-match') required.push(lower);
  }
  return { type: 'object', properties, required };
}

export const validationProblem = (errors: FieldError[]): ProblemError =>
  new ProblemError(
    VALIDATION_STATUS,
    'validation-failed',
    'Unprocessable Content',
    'The request does not match the schema; see errors[]',
    {},
    errors,
  );

interface CompiledRoute {
  params: ValidateFunction | null;
  query: ValidateFunction | null;
  body: ValidateFunction | null;
  headers: ValidateFunction | null;
  headerDecls: Record<string, HeaderDecl>;
  responses: Map<number, ValidateFunction>;
}

/** Every schema of a route, compiled (an invalid schema throws, naming the route and the part). */
function compileRoute(route: RouteDecl): CompiledRoute {
  const label = `${route.method.toUpperCase()} ${route.path}`;
  const params = route.params ? compile(urlAjv, withTextRules(route.params), `${label} params`) : null;
  const query = route.query ? compile(urlAjv, withTextRules(route.query), `${label} query`) : null;
  const body = route.body ? compile(bodyAjv, withTextRules(route.body), `${label} body`) : null;
  const headerDecls = requestHeadersOf(route);
  const hSchema = headersSchema(headerDecls);
  const headers = hSchema ? compile(urlAjv, hSchema, `${label} headers`) : null;
  const responses = new Map<number, ValidateFunction>();
  for (const [status, decl] of Object.entries(route.responses)) {
    const code = Number(status);
    if (code >= 200 && code < 300 && decl.schema) responses.set(code, compile(responseAjv, decl.schema, `${label} response ${code}`));
  }
  return { params, query, body, headers, headerDecls, responses };
}

/**
 * A route's validator, compiled on its first use: compiling every route's schemas took ~3 s of each start, whatever
 * the log; `compileNow` compiles at once (the test suite does it for every declared route, so none is invalid).
 */
export function compileRouteValidator(route: RouteDecl): RouteValidator & { compileNow(): void } {
  let compiled: CompiledRoute | null = null;
  const parts = (): CompiledRoute => (compiled ??= compileRoute(route));

  return {
    compileNow() {
      parts();
    },
    request(raw) {
      const { params, query, body, headers, headerDecls } = parts();
      const errors: FieldError[] = [];
      const p = { ...raw.params };
      if (params && !params(p)) errors.push(...fieldErrors('/params', params.errors));
      const q = { ...raw.query };
      errors.push(...foldLegacyQuery(route, q));
      if (query && !query(q)) errors.push(...fieldErrors('/query', query.errors));
      const h: Record<string, string | undefined> = {};
      for (const name of Object.keys(headerDecls)) {
        const lower = name.toLowerCase();
        if (raw.headers[lower] !== undefined) h[lower] = raw.headers[lower];
      }
      if (headers && !headers(h)) errors.push(...fieldErrors('/headers', headers.errors));
      let b = raw.body;
      if (body) {
        b = b === undefined ? {} : b;
        if (!body(b)) errors.push(...fieldErrors('/body', body.errors));
      }
      if (errors.length > 0) throw validationProblem(errors);
      return { params: p, query: q, body: b, headers: { ...raw.headers, ...h } };
    },
    response(status, jsonText) {
      const validate = parts().responses.get(status);
      if (!validate) return [];
      // Validate what the client receives: the JSON text (bigint and Date already turned into strings).
      const json: unknown = jsonText === undefined ? undefined : JSON.parse(jsonText);
      return validate(json) ? [] : fieldErrors('/response', validate.errors);
    },
  };
}

/** JSON text of an answer: bigint global positions travel as decimal strings. */
export function toJson(value: unknown): string {
  // A replacer makes stringify several times slower; bodies rarely hold a bigint, so try without first.
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  }
}
