// Read model of the module-records widget: per company and module, counters of records by state and by month created,
// moved by each record's membership document (which also keeps what the widget lists: the latest records).
import { MODULE_RECORD_EVENT_TYPES, type ModuleRecordEvent } from '../../commands/generador/record/moduleRecordEvents.js';
import type { RecordValues } from '../../commands/generador/shared/definitionTypes.js';
import type { ProjectedDoc, Projection, ProjectionTx } from '../runner/projection.js';
import { aggregateIdOfStream, tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';

export const MODULE_WIDGETS_PROJECTION = 'widgets-modules';
export const MODULE_WIDGET_COUNTERS = 'module_counters';
export const MODULE_WIDGET_RECORDS = 'module_records';

/** The bucket of a record with no states that is not archived, and of an archived one. */
export const ACTIVE = 'active';
export const ARCHIVED = 'archived';

export type CounterKind = 'state' | 'month';
/** How many records of a module are in one state (or archived), or were created in one month (YYYY-MM). */
export type ModuleCounterDoc = ProjectedDoc & { module: string; kind: CounterKind; key: string; count: number };
/** A record as the widget needs it: where it counts and what its row shows. */
export type ModuleMemberDoc = ProjectedDoc & {
  module: string;
  state: string | null;
  archived: boolean;
  patientId: string | null;
  createdAt: string;
  values: RecordValues;
};

export const moduleCounterId = (module: string, kind: CounterKind, key: string): string => `${module}|${kind}|${key}`;

const bucketOf = (doc: ModuleMemberDoc): string => (doc.archived ? ARCHIVED : (doc.state ?? ACTIVE));

function foldMember(doc: ModuleMemberDoc | null, event: RecordedEvent, tenantId: string, id: string): ModuleMemberDoc | null {
  const e = event as unknown as ModuleRecordEvent;
  const _position = Number(event.position);
  if (e.type === 'ModuleRecordCreated') {
    const { module, state, patientId, values } = e.data;
    return { tenantId, id, module, state, archived: false, patientId, createdAt: event.metadata.occurredAt, values, _position };
  }
  if (!doc) return null;
  switch (e.type) {
    case 'ModuleRecordAmended': {
      const merged = { ...(e.data.rewritten ? {} : doc.values), ...e.data.values };
      const values = Object.fromEntries(Object.entries(merged).filter(([name]) => !e.data.cleared.includes(name)));
      return { ...doc, values, _position };
    }
    case 'ModuleRecordTransitioned':
      return { ...doc, state: e.data.to, _position };
    case 'ModuleRecordArchived':
      return { ...doc, archived: true, _position };
    default:
      return doc;
  }
}

/** Adds `delta` to one counter; its own position makes a replay of the event move it once. */
async function bump(tx: ProjectionTx, tenantId: string, module: string, kind: CounterKind, key: string, delta: number, position: number) {
  const id = moduleCounterId(module, kind, key);
  const doc = await tx.get<ModuleCounterDoc>(MODULE_WIDGET_COUNTERS, tenantId, id);
  if (doc && doc._position >= position) return;
  tx.put<ModuleCounterDoc>(MODULE_WIDGET_COUNTERS, {
    tenantId,
    id,
    module,
    kind,
    key,
    count: (doc?.count ?? 0) + delta,
    _position: position,
  });
}

export const moduleWidgetsProjection: Projection = {
  name: MODULE_WIDGETS_PROJECTION,
  version: 1,
  // Counters first: a failure between them and the membership leaves it behind, and the replay moves nothing twice.
  collections: {
    [MODULE_WIDGET_COUNTERS]: [{ keys: { tenantId: 1, module: 1, kind: 1, key: 1 }, name: 'by_module_kind_key' }],
    [MODULE_WIDGET_RECORDS]: [{ keys: { tenantId: 1, module: 1, createdAt: -1, id: 1 }, name: 'by_module_created' }],
  },
  eventTypes: MODULE_RECORD_EVENT_TYPES,
  async handle(event, tx) {
    const tenantId = tenantOfStream(event.streamName);
    const id = aggregateIdOfStream(event.streamName);
    const position = Number(event.position);
    const current = await tx.get<ModuleMemberDoc>(MODULE_WIDGET_RECORDS, tenantId, id);
    if (current && current._position >= position) return;
    const next = foldMember(current, event, tenantId, id);
    if (!next || next === current) return;
    if (!current) await bump(tx, tenantId, next.module, 'month', next.createdAt.slice(0, 7), 1, position);
    if (!current || bucketOf(current) !== bucketOf(next)) {
      if (current) await bump(tx, tenantId, next.module, 'state', bucketOf(current), -1, position);
      await bump(tx, tenantId, next.module, 'state', bucketOf(next), 1, position);
    }
    tx.put(MODULE_WIDGET_RECORDS, next);
  },
};
