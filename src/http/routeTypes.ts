// A route is declared once; routing, validation, auth, permission checks, tenant scoping, problem mapping
// and the OpenAPI document all come from the declaration (see http/app.ts and http/openapi.ts).
import type { RateLimitLog } from '../rateLimits.js';
import type { TraceContext } from '../observability/traceContext.js';
import type { AppServices } from '../services.js';
import type { Principal } from '../auth/principal.js';
import type { Static, TSchema } from 'typebox';
import { withQueryAliases } from './queryVocabulary.js';

/** A JSON Schema value: a plain object or a TypeBox schema (whose interfaces admit only an any-valued index signature). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- schemas are data read by the generator and Ajv
export type JsonSchema = { readonly [key: string]: any };
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * - 'public': no token (login, health, openapi).
 * - 'session': a valid access token; no company needed (GET /tenants, /auth/me, logout).
 * - 'tenant': a valid token whose session has a company selected; `ctx.auth.tenantId` is set.
 * - 'platform': a valid token of a platform administrator (companies, projections, the whole log); company
 *   roles never reach these, whatever they hold, and no company needs to be selected.
 */
export type RouteAuth = 'public' | 'session' | 'tenant' | 'platform';

export interface ResponseDecl {
  description: string;
  /** JSON Schema of the body (problem+json bodies use the shared Problem schema). */
  schema?: JsonSchema;
  /** Response headers documented in OpenAPI, e.g. { ETag: 'Revision of the record' }. */
  headers?: Record<string, string>;
  /** Media type of a non-JSON body (e.g. 'text/html'); JSON (problem+json for errors) when unset. */
  contentType?: string;
  /** Other media types the same status may answer, chosen by the request's Accept (e.g. text/event-stream), with their schema. */
  alsoContent?: Record<string, JsonSchema>;
}

/** What a route's handler receives, already validated against the route's schemas; P, Q and B name their shapes. */
export interface RouteInput<P = unknown, Q = unknown, B = unknown> {
  params: P;
  query: Q;
  body: B;
  /** Lower-cased request headers. */
  headers: Record<string, string | undefined>;
}

export interface HttpResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Defaults to application/json (application/problem+json for errors, set by the framework). */
  contentType?: string;
  /** Patients a body that is not JSON (CSV, PDF) names, for the access audit; never sent. */
  auditPatientIds?: readonly string[];
}

/** What an audited route read: the record (or list) and, when the route knows them better than its answer shows, the patients. */
export interface AccessedRecord {
  recordType: string;
  recordId: string | null;
  /** Patients the answer names; by default every patientId / pacienteId / patient.id the JSON answer holds. */
  patientIds?: readonly string[];
}

export interface RequestContext {
  correlationId: string;
  /** The request's W3C trace (continued from its traceparent, or new): carried into commands' event metadata. */
  trace?: TraceContext;
  ip: string | null;
  userAgent: string | null;
  /** Present on every route but 'public' ones. */
  auth: Principal | null;
  services: AppServices;
  /**
   * The client's Idempotency-Key on an `idempotent` route, already scoped by the framework to the tenant,
   * user, method and route (so it can be passed as CommandContext.idempotencyKey); null otherwise.
   */
  idempotencyKey: string | null;
  /** Where the throttles this request meets report for its RateLimit headers (absent outside the HTTP pipeline). */
  rateLimits?: RateLimitLog;
}

/** Context of a 'tenant' route: the company is known. */
export interface TenantRequestContext extends RequestContext {
  auth: Principal & { tenantId: string };
}

export interface RouteDecl<P = unknown, Q = unknown, B = unknown> {
  method: HttpMethod;
  /** OpenAPI-style path: /pacientes/{id} */
  path: string;
  /** OpenAPI tag: the resource group identifier (Auth, Pacientes, Sistema, ...). */
  tag: string;
  summary: string;
  description?: string;
  auth: RouteAuth;
  /** Required company permission, e.g. 'pacientes:write'; checked against the selected company's grants ('tenant' routes). */
  permission?: string;
  params?: JsonSchema;
  query?: JsonSchema;
  /** Old query names this route still takes for one version (deprecated aliases, see http/queryVocabulary.ts). */
  legacyQuery?: readonly string[];
  body?: JsonSchema;
  /** Request headers the route reads (documented), e.g. { 'If-Match': { required: false, description } } */
  requestHeaders?: Record<string, { required?: boolean; description: string; schema?: JsonSchema }>;
  /** Also accepts application/x-www-form-urlencoded bodies (validated by the same schema), e.g. OAuth token requests. */
  formEncoded?: boolean;
  /** Accepts an Idempotency-Key header: a retried request replays the first answer. */
  idempotent?: boolean;
  /**
   * Reads of clinical records are audited (who read what, when, from where, with which outcome). Returns the record
   * read, or null when nothing is to be recorded; called after a 2xx answer, and after a refusal (403, 404) with the
   * problem answer, its input then as the request sent it (a 403 comes before validation). Every route whose answer
   * names a patient declares it (test/http/accessAuditWalk.test.ts).
   */
  auditAccess?(input: RouteInput<P, Q, B>, result: HttpResult): AccessedRecord | null;
  /** Every status the route can answer, with its schema. 400/401/403/413/415/422/429/500 are added by the framework where they apply. */
  responses: Record<number, ResponseDecl>;
  // Methods (not function properties) on purpose: a route typed for its own input joins a RouteDecl[] list.
  handle(input: RouteInput<P, Q, B>, ctx: RequestContext): Promise<HttpResult>;
}

/** What a declared input schema gives the handler: its TypeBox type; nothing when the route declares none. */
export type InputOf<S> = S extends undefined ? Record<string, never> : S extends TSchema ? Static<S> : never;
type BodyOf<S> = S extends undefined ? undefined : S extends TSchema ? Static<S> : never;

/** A route whose handler's input types are inferred from its TypeBox schemas, so schema and type cannot drift. */
export type TypedRouteDecl<PS, QS, BS> = Omit<RouteDecl<InputOf<PS>, InputOf<QS>, BodyOf<BS>>, 'params' | 'query' | 'body'> & {
  params?: PS;
  query?: QS;
  body?: BS;
};

/** Declares a route; its handler reads params, query and body typed from their schemas (declared once, with TypeBox). */
export const route = <
  PS extends TSchema | undefined = undefined,
  QS extends TSchema | undefined = undefined,
  BS extends TSchema | undefined = undefined,
>(
  decl: TypedRouteDecl<PS, QS, BS>,
): RouteDecl => withQueryAliases(decl as unknown as RouteDecl<unknown, unknown, unknown>);
