// A record's read answer (the view and its ETag), for the record kit: made afresh, or kept serialized while the record's
// collection and the others its view reads are unchanged for the company (a session with its readings and clinical values).
import type { RecordDoc, RecordModel } from '../../../queries/recordModel.js';
import { preparedRecord } from '../../../queries/preparedPages.js';
import type { TenantScope } from '../../../queries/tenantScope.js';
import { PreparedJson } from '../../preparedJson.js';
import { etagOf } from '../../recordHeaders.js';

export interface PreparedReadSpec {
  /** The collections the view reads besides the record's own: a write to any of them makes the answer afresh. */
  alsoFrom: { projection: string; collection: string }[];
}

export async function recordReadAnswer<D extends RecordDoc>(
  model: RecordModel<D>,
  view: (doc: D, scope: TenantScope) => unknown,
  prepared: PreparedReadSpec | undefined,
  scope: TenantScope,
  id: string,
): Promise<{ body: unknown; etag: string }> {
  const fresh = async () => {
    const doc = await model.or404(scope, id);
    return { body: await view(doc, scope), etag: etagOf(doc.revision) };
  };
  if (!prepared) return fresh();
  const key = { projection: model.projection, collection: model.collectionName, alsoFrom: prepared.alsoFrom, query: id };
  return preparedRecord(scope, key, async () => {
    const made = await fresh();
    return { body: PreparedJson.of(made.body), etag: made.etag };
  });
}
