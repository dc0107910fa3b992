// One answer for every record write: the record as the read model has it after the write (read-your-writes), its
// view, ETag of its revision, X-Event-Position and, on a 201, Location. Each group passes what varies as a descriptor.
import type { WriteOutcome } from '../queries/recordModel.js';
import { writeHeaders } from './recordHeaders.js';
import type { HttpResult, RequestContext, TenantRequestContext } from './routeTypes.js';

export type { WriteOutcome };

/** What a written record document carries: its stream revision and the global position it was projected at. */
export interface WrittenDoc {
  revision: number;
  _position: string | number | bigint;
}

/** What varies between the groups: how to read the record at least at the write, its view, where a new one lives. */
export interface RecordAnswerModel<D extends WrittenDoc> {
  /** The record at least at the write's revision: waits for the projection, else folds the stream (`xxxAfterWrite`). */
  latest: (scope: TenantRequestContext, id: string, result: WriteOutcome) => Promise<D>;
  /** The body of the answer. */
  view: (doc: D, scope: TenantRequestContext) => unknown;
  /** Location of a created record (sent on a 201 only). */
  location?: (id: string) => string;
}

export interface RecordAnswerOptions {
  /** Location to send whatever the status (overrides the model's, which is sent on a 201 only). */
  location?: string;
  /** Fields added to the view (e.g. the id of an entry the write created). */
  extra?: Record<string, unknown>;
}

/** The answer of a write of record `id`: status, view, ETag `W/"<revision>"`, X-Event-Position, Location on create. */
export async function recordAnswer<D extends WrittenDoc>(
  ctx: RequestContext,
  model: RecordAnswerModel<D>,
  id: string,
  result: WriteOutcome,
  status: number,
  options: RecordAnswerOptions = {},
): Promise<HttpResult> {
  const scope = ctx as TenantRequestContext; // record writes are tenant routes
  const doc = await model.latest(scope, id, result);
  const position = result.position ?? BigInt(doc._position);
  const location = options.location ?? (status === 201 ? model.location?.(id) : undefined);
  const view = await model.view(doc, scope);
  return {
    status,
    body: options.extra ? { ...(view as Record<string, unknown>), ...options.extra } : view,
    headers: writeHeaders({ revision: doc.revision, position, ...(location ? { location } : {}) }),
  };
}
