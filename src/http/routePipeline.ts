// The Koa handler of one declared route: auth -> content type -> validation -> (idempotency) -> handler
// -> response check (every 2xx answer; a prepared one once) -> answer -> access audit (also of a refused read).
import { rateLimitLogOf } from './rateLimitHeaders.js';
import type Koa from 'koa';
import { Readable } from 'node:stream';
import type { AppServices } from '../services.js';
import { ProblemError } from '../problems.js';
import { DomainError } from '../commands/decider.js';
import type { HttpResult, RequestContext, ResponseDecl, RouteDecl, RouteInput } from './routeTypes.js';
import type { FieldError } from '../problems.js';
import { principalFor, clientOf, type Authenticate } from './routeAuth.js';
import { foldLegacyQuery } from './queryVocabulary.js';
import { compileRouteValidator, toJson, type RouteValidator } from './validation.js';
import { internalError, toHttpError } from './errors.js';
import { markRouteAuth, tenantScopeOf } from './commandContext.js';
import type { IdempotencyGuard } from './idempotency.js';
import type { AccessAuditWriter } from './accessAudit.js';
import { consistencyTokens } from './consistencyToken.js';
import { PreparedJson } from './preparedJson.js';
import { attemptedRecord, auditRead } from './routeAudit.js';
import type { Principal } from '../auth/principal.js';
import { applyCachePolicy } from './conditionalGets.js';
import { linkNextPage } from './pageLinks.js';
import type { TraceContext } from '../observability/traceContext.js';
import { cursorBinding, openRequestCursor, routeTakesCursor, sealAnswerCursor } from './pageCursor.js';

export interface PipelineDeps {
  services: AppServices;
  authenticate: Authenticate;
  idempotency: IdempotencyGuard;
  accessAudit: AccessAuditWriter;
  /** Check 2xx bodies against their declared schema: 'enforce' answers 500 on a mismatch, 'log' only logs it. */
  responseCheck: ResponseCheck;
}

export type ResponseCheck = 'enforce' | 'log';

export const unsupportedMediaType = (): ProblemError =>
  new ProblemError(415, 'unsupported-media-type', 'Unsupported Media Type', 'Send the request body as application/json');

// A body is acceptable as JSON when it is declared so; an empty body without a type counts as {}.
function checkContentType(ctx: Koa.Context, formEncoded = false): void {
  const type = ctx.get('content-type');
  const length = Number(ctx.get('content-length') || 0);
  const chunked = ctx.get('transfer-encoding') !== '';
  if (type === '') {
    if (length > 0 || chunked) throw unsupportedMediaType();
    return;
  }
  const accepted = formEncoded ? ['application/json', 'application/x-www-form-urlencoded'] : ['application/json'];
  if (ctx.request.is(accepted) === false) throw unsupportedMediaType();
}

const isJsonType = (contentType: string | undefined): boolean => !contentType || /[/+]json\b/i.test(contentType);

// A Readable body is streamed as it is (an export too long to hold: CSV, NDJSON).
const isRaw = (result: HttpResult): boolean =>
  Buffer.isBuffer(result.body) || result.body instanceof Readable || (typeof result.body === 'string' && !isJsonType(result.contentType));

function send(ctx: Koa.Context, result: HttpResult, jsonText: string | undefined, prepared: PreparedJson | null): void {
  ctx.status = result.status;
  for (const [name, value] of Object.entries(result.headers ?? {})) ctx.set(name, value);
  if (result.body === undefined) return;
  if (isRaw(result)) {
    ctx.body = result.body;
    ctx.type = result.contentType ?? 'application/octet-stream';
    return;
  }
  ctx.body = prepared ? prepared.bytes : jsonText;
  ctx.type = result.contentType ?? 'application/json';
}

/** Handlers answer the raw global position; it leaves sealed as an opaque consistency token. */
async function sealEventPosition(result: HttpResult, services: AppServices): Promise<void> {
  const raw = result.headers?.['X-Event-Position'];
  if (raw === undefined || !/^\d+$/.test(raw)) return;
  result.headers = { ...result.headers, 'X-Event-Position': (await consistencyTokens(services)).seal(BigInt(raw)) };
}

/** A refusal that still wrote (units given back) answers with its position, sealed, to read the write back with. */
async function withWrittenPosition(err: unknown, services: AppServices): Promise<unknown> {
  if (!(err instanceof DomainError || err instanceof ProblemError) || err.writtenAt === undefined) return err;
  const problem = toHttpError(err)!;
  const sealed = (await consistencyTokens(services)).seal(err.writtenAt);
  const headers = { ...problem.headers, 'X-Event-Position': sealed };
  return new ProblemError(problem.status, problem.code, problem.title, problem.message, headers, problem.errors, problem.extensions);
}

// Headers the framework itself adds to answers, documented once for every route.
const FRAMEWORK_HEADERS = new Set(['content-type', 'cache-control']);

/** Headers that drift from the declaration: sent but not documented, or a documented Location a 201 does not send. */
function undeclaredHeaders(route: RouteDecl, declared: ResponseDecl, result: HttpResult): FieldError[] {
  const documented = new Set(Object.keys(declared.headers ?? {}).map((h) => h.toLowerCase()));
  const sent = Object.keys(result.headers ?? {}).map((h) => h.toLowerCase());
  const drift = sent
    .filter((h) => !documented.has(h) && !FRAMEWORK_HEADERS.has(h) && !(h === 'idempotent-replayed' && route.idempotent))
    .map((h) => ({ pointer: `/response/headers/${h}`, message: 'is sent but not declared' }));
  if (result.status === 201 && documented.has('location') && !sent.includes('location')) {
    drift.push({ pointer: '/response/headers/location', message: 'is declared but not sent' });
  }
  return drift;
}

/** Schema violations of a JSON body; a prepared body is checked once, the first time it is sent. */
function bodyProblems(
  validator: RouteValidator,
  result: HttpResult,
  jsonText: string | undefined,
  prepared: PreparedJson | null,
): FieldError[] {
  if (prepared) return prepared.problems(validator, result.status, (text) => validator.response(result.status, text));
  return isRaw(result) ? [] : validator.response(result.status, jsonText);
}

export function routeHandler(route: RouteDecl, deps: PipelineDeps): Koa.Middleware {
  const validator = compileRouteValidator(route);
  const { services } = deps;
  const label = `${route.method.toUpperCase()} ${route.path}`;
  const auditDeps = { accessAudit: deps.accessAudit, logger: services.logger };

  // A refused write is audited like a refused read (its successes are events already).
  const refusalAudited: RouteDecl | null = route.auditAccess
    ? route
    : route.method !== 'get'
      ? { ...route, auditAccess: (input) => attemptedRecord(route, input) }
      : null;

  /** A refused read of an audited route, or a refused write (403, 404), is audited too, with what the request asked for. */
  const auditRefusal = (ctx: Koa.Context, err: unknown, input: RouteInput | null): void => {
    const status = toHttpError(err)?.status;
    const principal = ctx.state.principal as Principal | undefined;
    if (!refusalAudited || (status !== 403 && status !== 404) || !principal?.tenantId) return;
    const query: Record<string, unknown> = { ...ctx.query };
    foldLegacyQuery(route, query); // the audit reads the new names, whichever the request sent
    const asSent: RouteInput = input ?? {
      params: { ...(ctx.params as Record<string, string>) },
      query,
      body: undefined,
      headers: ctx.headers as Record<string, string | undefined>,
    };
    const reader = { principal, tenantId: principal.tenantId, correlationId: String(ctx.state.correlationId), ...clientOf(ctx) };
    auditRead(auditDeps, refusalAudited, asSent, { status }, { ...reader, at: services.now().toISOString() });
  };
  const takesCursor = routeTakesCursor(route);

  return async (ctx) => {
    ctx.state.route = route.path; // the declared template, for metrics and the access log
    const seen: { input: RouteInput | null } = { input: null };
    try {
      await answer(ctx, seen);
    } catch (err) {
      auditRefusal(ctx, err, seen.input);
      throw await withWrittenPosition(err, services);
    }
  };

  /** Answers the request, keeping its validated input in `seen` for the audit of a refusal the handler throws. */
  async function answer(ctx: Koa.Context, seen: { input: RouteInput | null }): Promise<void> {
    const principal = await principalFor(route, ctx, services, deps.authenticate);
    if (route.body) checkContentType(ctx, route.formEncoded);
    const input = validator.request({
      params: { ...(ctx.params as Record<string, string>) },
      query: { ...ctx.query },
      body: route.body ? ctx.request.body : undefined,
      headers: ctx.headers as Record<string, string | undefined>,
    }) as RouteInput;
    seen.input = input;
    const rctx: RequestContext = {
      correlationId: String(ctx.state.correlationId),
      ...(ctx.state.trace ? { trace: ctx.state.trace as TraceContext } : {}),
      ...clientOf(ctx),
      auth: principal,
      services,
      idempotencyKey: null,
      rateLimits: rateLimitLogOf(ctx),
    };
    markRouteAuth(rctx, route.auth);
    // Cursors leave sealed for this company, route and filter; the handler sees only the store's own cursor.
    if (takesCursor) await openRequestCursor(rctx, input, cursorBinding(route, tenantScopeOf(rctx), input));

    const key = route.idempotent ? input.headers['idempotency-key'] : undefined;
    const result = key
      ? await deps.idempotency.run(
          {
            tenant: tenantScopeOf(rctx),
            userId: principal?.userId ?? null,
            sessionId: principal?.sessionId ?? null,
            method: route.method,
            routePath: route.path,
            key,
            params: input.params,
            body: input.body,
            correlationId: rctx.correlationId,
            ip: rctx.ip,
            userAgent: rctx.userAgent,
          },
          (scopedKey) => {
            rctx.idempotencyKey = scopedKey;
            return route.handle(input, rctx);
          },
        )
      : await route.handle(input, rctx);
    sealAnswerCursor(rctx, result);
    await sealEventPosition(result, services);

    const ok = result.status >= 200 && result.status < 300;
    const prepared = result.body instanceof PreparedJson ? result.body : null;
    const jsonText = prepared || result.body === undefined || isRaw(result) ? undefined : toJson(result.body);
    const replayed = result.headers?.['Idempotent-Replayed'] === 'true';
    if (ok && !replayed) {
      const declared = route.responses[result.status];
      const problems = !declared
        ? [{ pointer: '/response', message: `status ${result.status} is not declared` }]
        : [...undeclaredHeaders(route, declared, result), ...bodyProblems(validator, result, jsonText, prepared)];
      if (problems.length > 0) {
        services.logger.error('response does not match its declared schema', {
          route: label,
          status: result.status,
          correlationId: rctx.correlationId,
          errors: problems,
        });
        if (deps.responseCheck === 'enforce') throw internalError();
      }
    }
    applyCachePolicy(route, result);
    send(ctx, result, jsonText, prepared);
    linkNextPage(ctx, result);

    const reader = { principal, tenantId: tenantScopeOf(rctx), correlationId: rctx.correlationId, ip: rctx.ip, userAgent: rctx.userAgent };
    auditRead(auditDeps, route, input, result, { ...reader, at: services.now().toISOString() });
  }
}
