// JSON Schemas shared by route declarations. The OpenAPI document names ProblemSchema once in
// components and every error response refers to it.
import Type, { type TInteger, type TString } from 'typebox';
import { LIMITS } from '../limits.js';
import type { JsonSchema, ResponseDecl } from './routeTypes.js';
import { FREE_TEXT } from './textRules.js';

export const ProblemSchema: JsonSchema = {
  type: 'object',
  description: 'RFC 9457 problem details (application/problem+json)',
  required: ['type', 'title', 'status'],
  properties: {
    type: { type: 'string', description: "'/problems/<code>': the stable, machine-readable error code" },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    instance: { type: 'string', description: 'The request path' },
    correlationId: { type: 'string', description: 'Also in the X-Request-Id response header; quote it when reporting a problem' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['pointer', 'message'],
        properties: {
          pointer: {
            type: 'string',
            description: 'JSON pointer into the request: /body/email, /query/limit, /params/id, /headers/if-match',
          },
          message: { type: 'string' },
        },
      },
    },
  },
  additionalProperties: true,
};

/** A response declaration whose body is a problem (the OpenAPI document references the shared schema). */
export const problem = (description: string, headers?: Record<string, string>): ResponseDecl => ({
  description,
  schema: ProblemSchema,
  ...(headers ? { headers } : {}),
});

/** Free text (notes, narratives): tab and line breaks allowed; other control characters and bidi overrides never (textRules.ts). */
export const freeText = (maxLength: number, description?: string): TString =>
  Type.String({
    minLength: 1,
    maxLength,
    [FREE_TEXT]: true,
    description: `${description ? `${description}. ` : ''}Free text: tab and line breaks allowed`,
  });

/** A global log position as it leaves the service: sealed, usable as minPosition (consistencyToken.ts). */
export const ConsistencyTokenSchema: JsonSchema = {
  type: 'string',
  pattern: '^c1\\.[A-Za-z0-9_-]+$',
  description: 'Consistency token (opaque): pass it as minPosition to read at least up to this event',
};

/** Query properties of every list route: page size and opaque cursor. */
export const pageQueryProperties = {
  limit: {
    type: 'integer',
    minimum: 1,
    maximum: LIMITS.pagination.maxLimit,
    default: LIMITS.pagination.defaultLimit,
    description: `Page size (default ${LIMITS.pagination.defaultLimit}, max ${LIMITS.pagination.maxLimit})`,
  },
  cursor: {
    type: 'string',
    minLength: 1,
    maxLength: 2048,
    description:
      'Opaque cursor: the nextCursor of the previous page of the same list (same company, path and filters; limit may change). ' +
      'Any other cursor answers 400 `/problems/invalid-cursor`.',
  },
} as const;

/** Query property of read routes that support read-your-writes (see readYourWrites.ts). */
export const minPositionQueryProperty = {
  minPosition: {
    type: 'string',
    minLength: 1,
    maxLength: 128,
    description:
      `Consistency token (the X-Event-Position of your write, opaque): wait at most ${LIMITS.readYourWrites.maxWaitMs} ms until ` +
      'the read model has applied that write. A token this service did not issue answers 400 `/problems/invalid-min-position`.',
  },
} as const;

/** A page of items as list routes answer it. */
export const pageOf = (item: JsonSchema): JsonSchema => ({
  type: 'object',
  required: ['items', 'nextCursor'],
  properties: {
    items: { type: 'array', items: item },
    nextCursor: { type: ['string', 'null'], description: 'Cursor of the next page; null on the last page' },
  },
  additionalProperties: false,
});

/** The page and read-your-writes query fields as TypeBox properties, for queries typed from their schema. */
export const PageQueryFields = {
  // Optional on the wire, always present in the handler: validation fills in the default (useDefaults).
  limit: Type.Optional(Type.Integer(pageQueryProperties.limit)) as unknown as TInteger,
  cursor: Type.Optional(Type.String(pageQueryProperties.cursor)),
  /** Every list's "what changed since" (queries/changedSince.ts); one schema, so one shared parameter in the contract. */
  updatedSince: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'Only what changed at or after this instant (RFC 3339 with offset): records by their last event, entries by theirs.',
    }),
  ),
};
export const MinPositionField = { minPosition: Type.Optional(Type.String(minPositionQueryProperty.minPosition)) };
/** Query of a read that accepts only minPosition. */
export const MinPositionQuerySchema = Type.Object(MinPositionField, { additionalProperties: false });
/** Query of a page read with read-your-writes: limit (the schema's default fills it in), cursor and minPosition. */
export const PageQuerySchema = Type.Object({ ...PageQueryFields, ...MinPositionField }, { additionalProperties: false });
