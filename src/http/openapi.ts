// The OpenAPI 3.1 document, built from the same route declarations that drive routing and validation,
// with the framework's own answers (auth, validation, limits) added to every route where they apply.
import { readFileSync } from 'node:fs';
import { isOptionalModule } from '../commands/platform/company/events.js';
import type { GroupModule } from './groupModule.js';
import type { JsonSchema, ResponseDecl, RouteDecl } from './routeTypes.js';
import { ProblemSchema } from './commonSchemas.js';
import { withNextLink } from './pageLinks.js';
import { withRateLimitHeaders } from './rateLimitHeaders.js';
import { requestHeadersOf, VALIDATION_STATUS } from './validation.js';
import { apiDescription } from './openapiDescription.js';
import { titleOf } from './errors.js';
import { nameShapes } from './openapiShapes.js';
import { reuseAnswersAndParameters } from './openapiReuse.js';

type Obj = Record<string, unknown>;

const PROBLEM_REF = { $ref: '#/components/schemas/Problem' };

// Found by walking up, so it also works from a compiled dist/ tree.
function packageVersion(): string {
  for (let url = new URL('./package.json', import.meta.url), i = 0; i < 6; i++, url = new URL('../package.json', url)) {
    try {
      return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
    } catch {
      // not here: look one directory up
    }
  }
  return '0.0.0';
}

/** The API version: the package's semver (see the versioning policy in info.description). */
export const API_VERSION: string = packageVersion();

const pathParamsOf = (path: string): string[] => [...path.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]!);

/** getPacientesByIdHistorial: stable, derived from method and path. */
export function operationIdOf(route: RouteDecl): string {
  const words = route.path
    .split('/')
    .filter(Boolean)
    .map((seg) => (seg.startsWith('{') ? `by-${seg.slice(1, -1)}` : seg))
    .flatMap((seg) => seg.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return route.method + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

function hasInput(route: RouteDecl): boolean {
  return Boolean(route.params || route.query || route.body || Object.keys(requestHeadersOf(route)).length > 0);
}

/** A write the event log cannot take (README "Faults and recovery"): nothing of it was written. */
const eventLogRefusals: Record<number, ResponseDecl> = {
  503: {
    description: 'The event log stopped after a failed fsync; no write until the service restarts (`/problems/event-store-stopped`)',
    headers: { 'Retry-After': 'Seconds to wait' },
  },
  507: {
    description: 'The disk of the event log is full; retry later (`/problems/insufficient-storage`)',
    headers: { 'Retry-After': 'Seconds to wait' },
  },
};

/** The framework's answers a route can give besides its declared ones. */
export function frameworkResponses(route: RouteDecl): Record<number, ResponseDecl> {
  const out: Record<number, ResponseDecl> = {};
  const headers = requestHeadersOf(route);
  const ifMatch = Object.entries(headers).find(([name]) => name.toLowerCase() === 'if-match')?.[1];
  if (route.body) out[400] = { description: 'Malformed JSON body (`/problems/malformed-json`)' };
  if (route.auth !== 'public') {
    out[401] = {
      description: 'Missing, invalid or expired access token, or revoked session (`/problems/unauthorized`)',
      headers: { 'WWW-Authenticate': 'Bearer challenge (RFC 6750)' },
    };
  }
  if (route.auth === 'platform') {
    out[403] = { description: 'Forbidden: the caller is not a platform administrator (`/problems/platform-admin-required`)' };
  }
  if (route.auth === 'session') {
    out[403] = { description: 'Forbidden: an API client token on a route for people (`/problems/people-only`)' };
  }
  if (route.auth === 'tenant' || route.permission) {
    const reasons = [
      route.auth === 'tenant' ? 'no company selected on the session (`/problems/company-not-selected`)' : null,
      // The permission itself is named in the operation's description: one 403 answer serves every permission.
      route.permission ? 'missing permission (the operation names it) (`/problems/forbidden`)' : null,
      route.auth === 'tenant' && isOptionalModule(route.tag)
        ? 'the module is switched off for the company (`/problems/module-disabled`)'
        : null,
      route.auth === 'tenant' && route.method !== 'get' ? 'the company is suspended (`/problems/company-suspended`)' : null,
    ];
    out[403] = { description: `Forbidden: ${reasons.filter(Boolean).join('; ')}` };
  }
  if (pathParamsOf(route.path).length > 0)
    out[404] = { description: 'No such record (or it belongs to another company) (`/problems/not-found`)' };
  if (route.idempotent)
    out[409] = {
      description: 'The same Idempotency-Key is still being processed (`/problems/idempotency-key-in-flight`)',
      headers: { 'Retry-After': 'Seconds to wait' },
    };
  if (ifMatch) out[412] = { description: 'If-Match does not match the current revision (`/problems/precondition-failed`)' };
  if (route.body) {
    out[413] = { description: 'Body larger than the limit (`/problems/payload-too-large`)' };
    out[415] = {
      description:
        'Body is not application/json (`/problems/unsupported-media-type`), or is compressed (`/problems/unsupported-content-encoding`)',
    };
  }
  if (hasInput(route)) {
    const reused = route.idempotent ? '; Idempotency-Key reused with another body (`/problems/idempotency-key-reused`)' : '';
    out[VALIDATION_STATUS] = { description: `Schema violation: errors[] names each field (\`/problems/validation-failed\`)${reused}` };
  }
  if (ifMatch?.required) out[428] = { description: 'If-Match is required on this route (`/problems/precondition-required`)' };
  const query = (route.query?.properties ?? {}) as Obj;
  if ('minPosition' in query)
    out[503] = {
      description: 'The read model did not reach minPosition in time (`/problems/projection-behind`)',
      headers: { 'Retry-After': 'Seconds to wait' },
    };
  out[500] = { description: 'Unexpected error; no internals are disclosed (`/problems/internal`)' };
  if (route.method !== 'get') Object.assign(out, eventLogRefusals);
  return out;
}

function responseObject(status: number, decl: ResponseDecl): Obj {
  const isError = status >= 400;
  // X-Request-Id, on every answer, is said once in info.description (Requests) rather than on each of 2,300 answers.
  const headers: Obj = {};
  for (const [name, description] of Object.entries(decl.headers ?? {})) headers[name] = { description, schema: { type: 'string' } };
  const out: Obj = { description: decl.description || titleOf(status), ...(Object.keys(headers).length > 0 ? { headers } : {}) };
  if (isError) {
    const schema = !decl.schema || decl.schema === ProblemSchema ? PROBLEM_REF : decl.schema;
    out.content = { [decl.contentType ?? 'application/problem+json']: { schema } };
  } else if (decl.schema || decl.contentType) {
    out.content = { [decl.contentType ?? 'application/json']: decl.schema ? { schema: decl.schema } : {} };
  }
  for (const [type, schema] of Object.entries(decl.alsoContent ?? {})) (out.content as Obj)[type] = { schema };
  return out;
}

// A parameter's description is said once, on the parameter (Swagger UI shows it there), not again in its schema.
function parameter(name: string, where: 'path' | 'query' | 'header', required: boolean, schema: JsonSchema, description?: unknown): Obj {
  const { description: own, ...rest } = schema;
  const text = typeof description === 'string' ? description : typeof own === 'string' ? own : undefined;
  const deprecated = schema.deprecated === true ? { deprecated: true } : {}; // an old name kept for one version (queryVocabulary.ts)
  return {
    name,
    in: where,
    ...(required ? { required } : {}),
    ...(text ? { description: text } : {}),
    ...deprecated,
    schema: text === own ? rest : schema,
  };
}

function parameters(route: RouteDecl): Obj[] {
  const out: Obj[] = [];
  const paramProps = (route.params?.properties ?? {}) as Record<string, JsonSchema>;
  for (const name of pathParamsOf(route.path)) out.push(parameter(name, 'path', true, paramProps[name] ?? { type: 'string' }));
  const queryProps = (route.query?.properties ?? {}) as Record<string, JsonSchema>;
  const queryRequired = (route.query?.required ?? []) as string[];
  for (const [name, schema] of Object.entries(queryProps)) out.push(parameter(name, 'query', queryRequired.includes(name), schema));
  for (const [name, h] of Object.entries(requestHeadersOf(route)))
    out.push(parameter(name, 'header', Boolean(h.required), h.schema ?? { type: 'string' }, h.description));
  return out;
}

/** An idempotent route's success answers say when they are the replay of an earlier request with the same key. */
function withReplayHeader(route: RouteDecl, declared: Record<number, ResponseDecl>): Record<number, ResponseDecl> {
  if (!route.idempotent) return declared;
  const out: Record<number, ResponseDecl> = {};
  for (const [status, decl] of Object.entries(declared)) {
    const success = Number(status) >= 200 && Number(status) < 300;
    out[Number(status)] = success ? { ...decl, headers: { ...decl.headers, 'Idempotent-Replayed': REPLAYED_HEADER } } : decl;
  }
  return out;
}

// An API client's token (OAuth2 client credentials) is bound to its company: it opens tenant routes, never a person's.
function securityOf(route: RouteDecl, clientCredentials: boolean): Obj[] {
  if (route.auth === 'public') return [];
  return route.auth === 'tenant' && clientCredentials ? [{ bearerAuth: [] }, { clientCredentials: [] }] : [{ bearerAuth: [] }];
}

const REPLAYED_HEADER = "'true' when this is the stored answer of an earlier request with the same Idempotency-Key";

function operation(route: RouteDecl, operationId: string, clientCredentials: boolean): Obj {
  const declared = route.responses;
  const framework = frameworkResponses(route);
  const all: Record<number, ResponseDecl> = { ...framework, ...withRateLimitHeaders(withNextLink(withReplayHeader(route, declared))) };
  // A route's own 403 reasons come on top of the framework's (no company, missing permission...), never instead of them.
  if (declared[403] && framework[403])
    all[403] = { ...declared[403], description: `${framework[403].description}; ${declared[403].description}` };
  const responses: Obj = {};
  for (const status of Object.keys(all)
    .map(Number)
    .sort((a, b) => a - b))
    responses[String(status)] = responseObject(status, all[status]!);
  // What every operation of a kind shares is said once in info.description (Company, Audit, Idempotency); an operation
  // names its own rules, who may call it and its permission.
  const notes = [
    route.description,
    route.auth === 'public' ? 'Public: no token needed.' : null,
    route.auth === 'session' ? 'For people: works without a selected company; an API client token answers 403.' : null,
    route.auth === 'platform' ? 'Platform operation: platform administrators only; no company role grants it.' : null,
    route.permission ? `Needs \`${route.permission}\`.` : null,
    route.auditAccess ? 'Audited read.' : null,
  ].filter(Boolean);
  return {
    operationId,
    tags: [route.tag],
    summary: route.summary,
    ...(notes.length > 0 ? { description: notes.join('\n\n') } : {}),
    parameters: parameters(route),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: route.body },
              ...(route.formEncoded ? { 'application/x-www-form-urlencoded': { schema: route.body } } : {}),
            },
          },
        }
      : {}),
    responses,
    security: securityOf(route, clientCredentials),
  };
}

// The groups' tags, plus any other tag a group's routes use (described by that group).
function tagsOf(groups: readonly GroupModule[]): Obj[] {
  const tags = new Map<string, string>();
  for (const g of groups) tags.set(g.tag, g.description);
  for (const g of groups) for (const r of g.routes) if (!tags.has(r.tag)) tags.set(r.tag, g.description);
  return [...tags].map(([name, description]) => ({ name, description }));
}

export interface OpenApiOptions {
  title?: string;
  version?: string;
  servers?: { url: string; description?: string }[];
  /** info.description (the service's own by default). */
  description?: string;
  /** Named schemas the operations refer to ($ref, or the same shape): a company's module schemas (generador). */
  schemas?: Record<string, JsonSchema>;
  /** operationIds chosen by the caller (derived from method and path otherwise). */
  operationIds?: ReadonlyMap<RouteDecl, string>;
  /** The client-credentials token route, when `groups` do not hold it. */
  tokenRoute?: RouteDecl;
}

/** The security most operations share, declared once at the top; the operations that have it leave it out. */
function commonSecurity(paths: Record<string, Obj>): unknown {
  const ops = Object.values(paths).flatMap((item) => Object.values(item) as Obj[]);
  const counts = new Map<string, number>();
  for (const op of ops) counts.set(JSON.stringify(op.security), (counts.get(JSON.stringify(op.security)) ?? 0) + 1);
  const [text] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
  if (!text) return undefined;
  for (const op of ops) if (JSON.stringify(op.security) === text) delete op.security;
  return JSON.parse(text) as unknown;
}

/** The OAuth2 client-credentials token route (RFC 6749 4.4), found among the routes by its form-encoded POST. */
export const tokenRouteOf = (groups: readonly GroupModule[]): RouteDecl | undefined =>
  groups.flatMap((g) => g.routes).find((r) => r.method === 'post' && r.formEncoded && r.path.endsWith('/token'));

export function buildOpenApiDocument(groups: readonly GroupModule[], options: OpenApiOptions = {}): Obj {
  const paths: Record<string, Obj> = {};
  const used = new Set<string>();
  const tokenRoute = options.tokenRoute ?? tokenRouteOf(groups);
  for (const group of groups) {
    for (const route of group.routes) {
      const base = options.operationIds?.get(route) ?? operationIdOf(route);
      let id = base;
      for (let n = 2; used.has(id); n++) id = `${base}${n}`;
      used.add(id);
      (paths[route.path] ??= {})[route.method] = operation(route, id, Boolean(tokenRoute));
    }
  }
  const security = commonSecurity(paths);
  const shapes = nameShapes(paths, { Problem: ProblemSchema, ...options.schemas });
  const reused = reuseAnswersAndParameters(paths);
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: options.title ?? 'Dialysis clinic records API',
      version: options.version ?? API_VERSION,
      description: options.description ?? apiDescription(),
    },
    // Relative to where the document is served, so Try-it calls the server that served it.
    servers: options.servers ?? [{ url: '/', description: 'The server that serves this document' }],
    ...(security ? { security } : {}),
    tags: tagsOf(groups),
    paths,
    components: {
      schemas: shapes.schemas,
      examples: shapes.examples,
      responses: reused.responses,
      requestBodies: reused.requestBodies,
      parameters: reused.parameters,
      headers: reused.headers,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'Access token from POST /auth/verify-2fa or /auth/refresh',
        },
        ...(tokenRoute
          ? {
              clientCredentials: {
                type: 'oauth2',
                description: `An API client's bearer token, bound to its company (${tokenRoute.method.toUpperCase()} ${tokenRoute.path})`,
                flows: { clientCredentials: { tokenUrl: tokenRoute.path, scopes: {} } },
              },
            }
          : {}),
      },
    },
  };
}
