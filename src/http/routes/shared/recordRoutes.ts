// The route kit of a record kept in one stream: create, list, read, correct with If-Match, status actions and
// history, declared once here; a group names its record model, view, schemas and commands.
import Type, { type Static, type TObject, type TProperties, type TSchema } from 'typebox';
import type { RecordDoc, RecordModel, WriteOutcome } from '../../../queries/recordModel.js';
import type { TenantScope } from '../../../queries/tenantScope.js';
import type { Page } from '../../../stores/readStore.js';
import { MinPositionField, pageOf, PageQueryFields, problem } from '../../commonSchemas.js';
import { recordAnswer, type RecordAnswerOptions } from '../../recordAnswer.js';
import { ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { historyRoute } from '../../recordHistoryAnswer.js';
import { awaitMinPosition } from '../../readYourWrites.js';
import { asOfHeaders, pointOf, RecordReadQuerySchema } from '../../recordAsOf.js';
import { route, type AccessedRecord, type HttpResult, type RequestContext, type ResponseDecl, type RouteDecl } from '../../routeTypes.js';
import { IdParams, IdSchema, ReasonBody } from './fieldSchemas.js';
import { recordListPage, type PreparedListSpec } from './preparedRecordList.js';
import { recordReadAnswer, type PreparedReadSpec } from './recordReadAnswer.js';
import {
  badCursor400,
  conflict409,
  createdOk,
  IF_MATCH_PROBLEMS,
  ok,
  precondition412,
  READ_HEADERS,
  required428,
  tenantCtx,
  unavailable503,
  withFieldPointers,
} from './recordSupport.js';

export interface RecordKitSpec<D extends RecordDoc> {
  /** OpenAPI tag (the group). */
  tag: string;
  /** Collection path, e.g. '/cargos-laborales'; a record is `${base}/{id}`. */
  base: string;
  read: string;
  write: string;
  /** What one record is called in summaries and the 404 ('job position'). */
  noun: string;
  model: RecordModel<D>;
  /** The answer body of a record. */
  view: (doc: D, scope: TenantScope) => unknown;
  viewSchema: TSchema;
  /** Record type in the access audit, for groups whose reads are audited. */
  auditAs?: string;
  /** Path parameter naming the record (default 'id'): a record is `${base}/{<idParam>}`. */
  idParam?: string;
  /** Schema of that parameter (default a uuid), e.g. a module's code. */
  idSchema?: TSchema;
  /** The 404 of the group, when it says more than "No such <noun>" (e.g. also rooms and stations). */
  notFound404?: ResponseDecl;
  /** The read's answer kept serialized between changes of what it is made of (recordReadAnswer.ts). */
  preparedRead?: PreparedReadSpec;
}

type Extra = { description?: string; responses?: Record<number, ResponseDecl> };
type Handler<B, P = { id: string }> = (
  id: string,
  body: B,
  ctx: RequestContext,
  ifMatch: number | null,
  params: P,
) => Promise<WriteOutcome>;
type ListQuery<F extends TProperties> = Static<TObject<F>> & {
  limit: number;
  cursor?: string;
  minPosition?: string;
  updatedSince?: string;
};

/** The routes of one record, with the 404, params and write answer they share. */
export function recordKit<D extends RecordDoc>(spec: RecordKitSpec<D>) {
  const { tag, base, model, noun } = spec;
  const idParam = spec.idParam ?? 'id';
  const record = `${base}/{${idParam}}`;
  // A record's params: its id, under the group's name for it ('id' by default).
  const Params = spec.idParam ? Type.Object({ [idParam]: spec.idSchema ?? IdSchema }, { additionalProperties: false }) : IdParams;
  const idOf = (input: { params: unknown }): string => (input.params as Record<string, string>)[idParam]!;
  const notFound404 =
    spec.notFound404 ?? problem(`No such ${noun} in the selected company (another company's ${noun} is reported the same way)`);
  const answered = { latest: model.latest, view: spec.view, location: (id: string) => `${base}/${id}` };
  const answer = (
    ctx: RequestContext,
    id: string,
    result: WriteOutcome,
    status = 200,
    options?: RecordAnswerOptions,
  ): Promise<HttpResult> => recordAnswer(ctx, answered, id, result, status, options);
  const audit = (id: string | null): AccessedRecord | null =>
    spec.auditAs ? { recordType: id === null ? `${spec.auditAs}List` : spec.auditAs, recordId: id } : null;
  const auditRead = spec.auditAs ? { auditAccess: (input: { params: unknown }) => audit(idOf(input)) } : {};

  /**
   * Action on a record (POST `${base}/{id}/${path}`): If-Match optional or required, body a reason by default; status 201
   * when it adds an entry to the record (answered with the record and its Location).
   */
  function action<B extends TSchema = typeof ReasonBody, P extends TSchema = typeof IdParams>(
    decl: Extra & {
      path: string;
      summary: string;
      body?: B;
      /** Path parameters when the path names more than the record's id (e.g. `{ticketId}`); the handler gets them. */
      params?: P;
      ifMatch?: 'optional' | 'required';
      status?: 200 | 201;
      handle: Handler<Static<B>, Static<P>>;
    },
  ): RouteDecl {
    const required = decl.ifMatch === 'required';
    const status = decl.status ?? 200;
    const answered =
      status === 201
        ? createdOk(`The ${noun} with the new entry`, spec.viewSchema, `URL of the ${noun}`)
        : ok(`The ${noun}`, spec.viewSchema);
    return route({
      method: 'post',
      path: `${record}/${decl.path}`,
      tag,
      auth: 'tenant',
      permission: spec.write,
      summary: decl.summary,
      ...(decl.description ? { description: decl.description } : {}),
      params: (decl.params ?? Params) as P,
      body: (decl.body ?? ReasonBody) as B,
      requestHeaders: { 'If-Match': ifMatchHeader(required) },
      responses: {
        [status]: answered,
        404: notFound404,
        409: conflict409,
        412: precondition412,
        ...((required ? { 428: required428 } : {}) as Record<number, ResponseDecl>),
        ...decl.responses,
      },
      handle: (input, ctx) =>
        withFieldPointers(async () => {
          const ifMatch = required ? ifMatchRevision(input.headers['if-match'], { required }) : ifMatchRevision(input.headers['if-match']);
          const id = idOf(input);
          const result = await decl.handle(id, input.body as Static<B>, ctx, ifMatch, input.params as Static<P>);
          return answer(ctx, id, result, status);
        }),
    });
  }

  return {
    notFound404,
    answer,
    action,

    /** POST `${base}`: an idempotent create answering 201 with Location. */
    create<B extends TSchema, K extends string>(
      decl: Extra & {
        summary: string;
        body: B;
        /** The member of the command's answer holding the new record's id (e.g. 'productId'). */
        idKey: K;
        handle: (body: Static<B>, ctx: RequestContext) => Promise<Record<K, string> & { result: WriteOutcome }>;
      },
    ): RouteDecl {
      return route({
        method: 'post',
        path: base,
        tag,
        auth: 'tenant',
        permission: spec.write,
        idempotent: true,
        summary: decl.summary,
        ...(decl.description ? { description: decl.description } : {}),
        body: decl.body,
        responses: {
          201: createdOk(`The new ${noun}`, spec.viewSchema, `URL of the ${noun}`),
          409: conflict409,
          ...decl.responses,
        },
        handle: (input, ctx) =>
          withFieldPointers(async () => {
            const created = await decl.handle(input.body as Static<B>, ctx);
            return answer(ctx, created[decl.idKey], created.result, 201);
          }),
      });
    },

    /** GET `${base}`: a page of records filtered by `filters`, read-your-writes with minPosition. */
    list<F extends TProperties, C = undefined>(
      decl: Extra & {
        summary: string;
        filters: F;
        legacyQuery?: readonly string[];
        /** The record id the access audit names for this query (e.g. the patient filtered by); null by default. */
        auditId?: (query: ListQuery<F>) => string | null;
        /** `context`: the prepared page's (when set); unset when the list is not prepared. */
        list: (scope: TenantScope, query: ListQuery<F>, context?: C) => Promise<Page<unknown>>;
        /** Pages prepared once per change of the collection (and of the context, when the page is made of more). */
        prepared?: PreparedListSpec<ListQuery<F>, C>;
      },
    ): RouteDecl {
      const query = Type.Object({ ...decl.filters, ...PageQueryFields, ...MinPositionField }, { additionalProperties: false });
      return route({
        method: 'get',
        path: base,
        tag,
        auth: 'tenant',
        permission: spec.read,
        summary: decl.summary,
        ...(decl.description ? { description: decl.description } : {}),
        ...(decl.legacyQuery ? { legacyQuery: decl.legacyQuery } : {}),
        query,
        responses: { 200: { description: `A page of ${noun}s`, schema: pageOf(spec.viewSchema) }, 400: badCursor400, 503: unavailable503 },
        ...(spec.auditAs
          ? {
              auditAccess: (input: { query: unknown }) => ({
                ...audit(null)!,
                recordId: decl.auditId?.(input.query as ListQuery<F>) ?? null,
              }),
            }
          : {}),
        handle: async (input, ctx) => {
          const q = input.query as ListQuery<F>;
          await awaitMinPosition(ctx, q.minPosition, model.awaits);
          return { status: 200, body: await recordListPage(ctx, tenantCtx(ctx), model, base, q, decl) };
        },
      });
    },

    /** GET `${base}/{id}`: the record with its ETag, read-your-writes with minPosition; as it was with asOf or version. */
    read(decl: Extra & { summary: string }): RouteDecl {
      return route({
        method: 'get',
        path: record,
        tag,
        auth: 'tenant',
        permission: spec.read,
        summary: decl.summary,
        ...(decl.description ? { description: decl.description } : {}),
        params: Params,
        query: RecordReadQuerySchema,
        responses: {
          200: ok(`The ${noun}`, spec.viewSchema, READ_HEADERS),
          404: notFound404,
          503: unavailable503,
          ...decl.responses,
        },
        ...auditRead,
        handle: async (input, ctx) => {
          const point = pointOf(input.query);
          if (point) {
            const at = await model.at(tenantCtx(ctx), idOf(input), point);
            return { status: 200, body: await spec.view(at.doc, tenantCtx(ctx)), headers: await asOfHeaders(ctx, at) };
          }
          await awaitMinPosition(ctx, input.query.minPosition, model.awaits);
          const { body, etag } = await recordReadAnswer(model, spec.view, spec.preparedRead, tenantCtx(ctx), idOf(input));
          return { status: 200, body, headers: { ETag: etag } };
        },
      });
    },

    /** PATCH `${base}/{id}`: a correction with its reason; If-Match required (428 without, 412 when changed). */
    patch<B extends TSchema>(
      decl: Extra & {
        summary: string;
        body: B;
        handle: (id: string, body: Static<B>, ctx: RequestContext, ifMatch: number) => Promise<WriteOutcome>;
      },
    ): RouteDecl {
      return route({
        method: 'patch',
        path: record,
        tag,
        auth: 'tenant',
        permission: spec.write,
        summary: decl.summary,
        description:
          decl.description ?? `Partial update with a reason; If-Match is required (428 without it, 412 when the ${noun} changed).`,
        params: Params,
        body: decl.body,
        requestHeaders: { 'If-Match': ifMatchHeader(true) },
        responses: {
          200: ok(`The corrected ${noun}`, spec.viewSchema),
          404: notFound404,
          ...IF_MATCH_PROBLEMS,
          ...decl.responses,
        },
        handle: (input, ctx) =>
          withFieldPointers(async () => {
            const ifMatch = ifMatchRevision(input.headers['if-match'], { required: true });
            const result = await decl.handle(idOf(input), input.body as Static<B>, ctx, ifMatch);
            return answer(ctx, idOf(input), result);
          }),
      });
    },

    /** GET `${base}/{id}/historial`: who, when, why and what of every change. */
    history(decl: { summary?: string; auditAs?: string } = {}): RouteDecl {
      return historyRoute({
        path: `${record}/historial`,
        tag,
        permission: spec.read,
        summary: decl.summary ?? `The ${noun}'s history: who, when, why and what of every change, oldest first`,
        params: Params,
        idParam,
        ...((decl.auditAs ?? spec.auditAs) ? { auditAs: decl.auditAs ?? spec.auditAs } : {}),
        category: model.category,
        projection: model.projection,
        fold: model.fold,
        notFound: notFound404,
        exists: model.or404,
      });
    },
  };
}
