// GET /sistema/eventos: the company's change feed for integrators, as JSON pages, a long-poll (wait) or Server-Sent
// Events (Accept: text/event-stream); any company principal, each seeing only the record types its permissions read.
import Type from 'typebox';
import { route, type HttpResult, type RequestContext } from '../../routeTypes.js';
import { problem } from '../../commonSchemas.js';
import { ProblemError } from '../../../problems.js';
import { closed, IdSchema } from '../shared/fieldSchemas.js';
import { readFeedPage, type FeedFilter, type FeedPage } from '../../../queries/sistema/changeFeed.js';
import { FeedEventSchema } from '../../../queries/sistema/feedEvents.js';
import { FEED_LIMITS, feedHubOf } from './feedHub.js';
import { feedEventStream } from './feedStream.js';

const POSITION_PATTERN = '^(0|[1-9][0-9]{0,17})$';
const nameList = (description: string) => Type.String({ pattern: '^[A-Za-z0-9]+(,[A-Za-z0-9]+){0,19}$', maxLength: 1300, description });

const FeedQuery = closed({
  from: Type.Optional(
    Type.String({
      pattern: POSITION_PATTERN,
      description: 'After this position',
    }),
  ),
  recordType: Type.Optional(nameList('Categories, comma-separated')),
  type: Type.Optional(nameList('Event types, comma-separated')),
  patientId: Type.Optional({ ...IdSchema, description: 'Owning patient' }),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: FEED_LIMITS.maxLimit,
      default: FEED_LIMITS.defaultLimit,
      description: 'Page size',
    }),
  ),
  wait: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: FEED_LIMITS.maxWaitSeconds,
      default: 0,
      description: 'Long-poll seconds',
    }),
  ),
});

const FeedPageSchema = Type.Object(
  {
    items: Type.Array(FeedEventSchema),
    nextFrom: Type.String({ pattern: '^[0-9]+$', description: 'Next `from`' }),
    head: Type.String({ pattern: '^[0-9]+$', description: 'Last position of the company' }),
  },
  { additionalProperties: false },
);

const DESCRIPTION =
  `Visible record types only. A page scans at most ${FEED_LIMITS.scanPerPage} events: follow nextFrom to head. ` +
  '`Accept: text/event-stream`: SSE (`id:` position, `event:` type), resume with Last-Event-ID; a stream ends with its access token.';

const wantsEvents = (accept: string | undefined): boolean => /\btext\/event-stream\b/i.test(accept ?? '');

const listOf = (value: string | undefined): ReadonlySet<string> | null => (value ? new Set(value.split(',')) : null);

/** What is left of the (already verified) bearer token's life: a stream never outlives the token that opened it. */
export function tokenLifeLeftMs(authorization: string | undefined, nowMs: number): number {
  try {
    const payload = (authorization ?? '').split('.')[1] ?? '';
    const { exp } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof exp === 'number' ? Math.max(exp * 1000 - nowMs, 0) : FEED_LIMITS.maxStreamMs;
  } catch {
    return FEED_LIMITS.maxStreamMs;
  }
}

const pageBody = (page: FeedPage) => ({ items: page.items, nextFrom: page.next.toString(), head: page.head.toString() });

async function longPoll(ctx: RequestContext, tenant: string, after: bigint, limit: number, wait: number, filter: FeedFilter) {
  const { services } = ctx;
  const read = (from: bigint) => readFeedPage(services, tenant, { after: from, limit, scanBudget: FEED_LIMITS.scanPerPage }, filter);
  let page = await read(after);
  if (page.items.length > 0 || wait === 0) return page;
  const hub = feedHubOf(services);
  const release = hub.acquire(tenant, ctx.rateLimits);
  try {
    const deadline = Date.now() + wait * 1000;
    while (page.items.length === 0 && Date.now() < deadline) {
      if (page.next >= page.head && (await hub.nextEvent(tenant, page.next, deadline - Date.now())) !== 'event') break;
      page = await read(page.next);
    }
    return page;
  } finally {
    release();
  }
}

export const feedRoute = route({
  method: 'get',
  path: '/sistema/eventos',
  tag: 'Sistema',
  auth: 'tenant',
  summary: "The company's events after a position (JSON, long-poll, SSE)",
  description: DESCRIPTION,
  query: FeedQuery,
  legacyQuery: ['desde'],
  requestHeaders: {
    'Last-Event-ID': {
      required: false,
      description: 'SSE resume (wins over `from`)',
      schema: { type: 'string', pattern: POSITION_PATTERN },
    },
  },
  responses: {
    200: {
      description: 'Events',
      schema: FeedPageSchema,
      alsoContent: { 'text/event-stream': { type: 'string' } },
    },
    429: problem('`/problems/too-many-streams`', { 'Retry-After': 'Seconds to wait' }),
  },
  // One entry per page or stream opened, never per event.
  auditAccess: (input) => ({
    recordType: 'changeFeed',
    recordId: null,
    ...(input.query.patientId ? { patientIds: [input.query.patientId] } : {}),
  }),
  handle: async (input, ctx): Promise<HttpResult> => {
    const tenant = ctx.auth!.tenantId!;
    const { from, recordType, type, patientId, limit = FEED_LIMITS.defaultLimit, wait = 0 } = input.query;
    const after = BigInt(input.headers['last-event-id'] ?? from ?? '0');
    // A position this log has not reached (another instance's log, or made up) would silently skip the events before it.
    if (after > (await ctx.services.events.headPosition())) {
      const pointer = input.headers['last-event-id'] !== undefined ? '/headers/last-event-id' : '/query/from';
      throw new ProblemError(422, 'validation-failed', 'Unprocessable Content', 'The position is beyond the end of this log', {}, [
        { pointer, message: 'a position of this log: 0, or a nextFrom or event id this service answered' },
      ]);
    }
    const filter: FeedFilter = {
      permissions: ctx.auth!.permissions,
      recordTypes: listOf(recordType),
      types: listOf(type),
      patientId: patientId ?? null,
    };
    if (!wantsEvents(input.headers.accept)) return { status: 200, body: pageBody(await longPoll(ctx, tenant, after, limit, wait, filter)) };
    const release = feedHubOf(ctx.services).acquire(tenant, ctx.rateLimits);
    const lifetimeMs = tokenLifeLeftMs(input.headers.authorization, ctx.services.now().getTime());
    const body = feedEventStream(ctx.services, tenant, { after, limit, lifetimeMs }, filter, release);
    return { status: 200, body, contentType: 'text/event-stream; charset=utf-8', auditPatientIds: patientId ? [patientId] : [] };
  },
});
