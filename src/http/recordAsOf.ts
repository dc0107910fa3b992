// A single record read at a point of its past (?asOf=<instant> or ?version=<n>, issue 23 item 2): the query fields every
// record read declares, the point asked for (both at once is a 422 naming them), and the headers naming the version and
// the event that made the record so.
import Type from 'typebox';
import type { RecordAt, RecordPoint } from '../queries/recordModel.js';
import { ProblemError } from '../problems.js';
import { MinPositionField } from './commonSchemas.js';
import { consistencyTokens } from './consistencyToken.js';
import { etagOf } from './recordHeaders.js';
import type { HttpResult, RequestContext } from './routeTypes.js';

/** What a read at a point answers besides the record (documented here once: the contract's size is budgeted). */
const AS_OF_ANSWER =
  'The answer names the version and the event that made the record so (headers X-Record-Event, ' +
  'X-Event-Position); ETag is the revision then.';

/** The two ways of naming a record's past; without either a read answers the record as it is now. */
export const AsOfFields = {
  asOf: Type.Optional(
    Type.String({
      format: 'date-time',
      description:
        'The record as it was at this instant (ISO-8601 with offset), folded from its own events up to it; deleted, ' +
        'archived and retired records stay readable this way. Before its first event: 404 `/problems/not-yet-existing` ' +
        '(firstEventAt names that instant). Not with `version`. ' +
        AS_OF_ANSWER,
    }),
  ),
  version: Type.Optional(
    Type.Integer({
      minimum: 0,
      description: "The record as it was right after this version (a history entry's `revision`; beyond the latest: 404). Not with `asOf`.",
    }),
  ),
};

/** Query of a read at a point alone (a record read without minPosition). */
export const AsOfQuerySchema = Type.Object(AsOfFields, { additionalProperties: false });

/** Query of a single-record read: minPosition, asOf and version. */
export const RecordReadQuerySchema = Type.Object({ ...MinPositionField, ...AsOfFields }, { additionalProperties: false });

/** The point a read asks for, or null for the record as it is now; asOf and version together are a 422 naming both. */
export function pointOf(query: { asOf?: string | undefined; version?: number | undefined }): RecordPoint | null {
  if (query.asOf !== undefined && query.version !== undefined) {
    const message = 'send either asOf or version, not both';
    throw new ProblemError(422, 'validation-failed', 'Unprocessable Content', 'asOf and version name the same thing twice', {}, [
      { pointer: '/query/asOf', message },
      { pointer: '/query/version', message },
    ]);
  }
  if (query.asOf !== undefined) return { asOf: query.asOf };
  return query.version !== undefined ? { version: query.version } : null;
}

/** A structured-field string (RFC 8941 sf-string): quoted, with backslash and quote escaped. */
const sfString = (v: string): string => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/** The headers of a record read at a point: its ETag, the version and the event that made it (position sealed). */
export async function asOfHeaders(ctx: RequestContext, at: RecordAt<{ revision: number }>): Promise<Record<string, string>> {
  const tokens = await consistencyTokens(ctx.services);
  return {
    ETag: etagOf(at.doc.revision),
    'X-Record-Event': `version=${at.version}, type=${sfString(at.event.type)}, occurredAt=${sfString(at.event.metadata.occurredAt)}, actor=${sfString(at.event.metadata.actor)}`,
    'X-Event-Position': tokens.seal(at.event.position),
  };
}

/** A single-record read that has no version of its own now: the record as it is, or at the point the query names. */
export async function nowOrAt(
  ctx: RequestContext,
  query: { asOf?: string | undefined; version?: number | undefined },
  read: { now: () => Promise<unknown>; at: (point: RecordPoint) => Promise<RecordAt<unknown>> },
): Promise<HttpResult> {
  const point = pointOf(query);
  if (!point) return { status: 200, body: await read.now() };
  const at = await read.at(point);
  return { status: 200, body: at.doc, headers: await asOfHeaders(ctx, { ...at, doc: { revision: at.version } }) };
}
