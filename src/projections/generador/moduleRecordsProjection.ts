// Read model of the records of every company-defined module: one document per record with its values mapped onto its
// module's current major (what lists filter and sort on), re-mapped when the module gains a major version.
import { MODULE_EVENT_TYPES, type ModuleEvent } from '../../commands/generador/module/moduleEvents.js';
import { MODULE_RECORD_EVENT_TYPES } from '../../commands/generador/record/moduleRecordEvents.js';
import type { UpcastStep } from '../../commands/generador/shared/definitionTypes.js';
import { upcastToCurrent } from '../../commands/generador/shared/upcast.js';
import { applyFold, type ProjectedDoc, type Projection, type ProjectionTx } from '../runner/projection.js';
import { aggregateIdOfStream, tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';
import { foldModuleRecord, type ModuleRecordDoc } from './moduleRecordDoc.js';

export const MODULE_RECORDS_PROJECTION = 'generadorRecords';
export const MODULE_RECORDS = 'moduleRecords';
/** Per module (id: its code) its majors and how many slots it has; per slot (`<code>:<n>`) a record id. */
export const MODULE_RECORD_SLOTS = 'moduleRecordSlots';

/** The mapping side of a module: each major with its latest minor and the steps from the major before. */
export type ModuleMajorsDoc = ProjectedDoc & { majors: { major: number; minor: number; upcast: UpcastStep[] }[]; slots: number };
export type RecordSlotDoc = ProjectedDoc & { recordId: string };

const slotId = (code: string, n: number): string => `${code}:${n}`;

/** The module's majors document: from the batch's cache when it has it, else read. */
async function majorsDoc(tx: ProjectionTx, tenantId: string, code: string): Promise<ModuleMajorsDoc | null> {
  const peeked = tx.peek?.<ModuleMajorsDoc>(MODULE_RECORD_SLOTS, tenantId, code);
  return peeked !== undefined ? peeked : tx.get<ModuleMajorsDoc>(MODULE_RECORD_SLOTS, tenantId, code);
}
const MODULE_TYPES: ReadonlySet<string> = new Set(MODULE_EVENT_TYPES);

function nextMajors(majors: ModuleMajorsDoc['majors'], event: ModuleEvent): ModuleMajorsDoc['majors'] | null {
  switch (event.type) {
    case 'ModuleDefined':
      return [{ ...event.data.version, upcast: [] }];
    case 'ModuleDefinitionChanged': {
      const { major, minor } = event.data.version;
      return majors.map((m) => (m.major === major ? { ...m, minor } : m));
    }
    case 'ModuleMajorVersionAdded':
      return [...majors, { ...event.data.version, upcast: event.data.upcast }];
    default:
      return null;
  }
}

/** A module event: its majors kept; a new major re-maps every record of the module, walking its slots. */
async function onModuleEvent(event: RecordedEvent, tx: ProjectionTx, tenantId: string): Promise<void> {
  const code = aggregateIdOfStream(event.streamName);
  const position = Number(event.position);
  const current = await majorsDoc(tx, tenantId, code);
  if (current && current._position >= position) return;
  const majors = nextMajors(current?.majors ?? [], { type: event.type, data: event.data } as unknown as ModuleEvent);
  if (!majors) return;
  tx.put<ModuleMajorsDoc>(MODULE_RECORD_SLOTS, { tenantId, id: code, majors, slots: current?.slots ?? 0, _position: position });
  if (event.type !== 'ModuleMajorVersionAdded') return;
  for (let n = 0; n < (current?.slots ?? 0); n++) {
    const slot = await tx.get<RecordSlotDoc>(MODULE_RECORD_SLOTS, tenantId, slotId(code, n));
    const record = slot && (await tx.get<ModuleRecordDoc>(MODULE_RECORDS, tenantId, slot.recordId));
    if (!record || record._position >= position) continue;
    tx.put<ModuleRecordDoc>(MODULE_RECORDS, {
      ...record,
      values: upcastToCurrent(record.written, record.major, majors),
      _position: position,
    });
  }
}

/** A record event: the record folded, its values mapped onto the module's current major; a new record takes a slot. */
async function onRecordEvent(event: RecordedEvent, tx: ProjectionTx, tenantId: string): Promise<void> {
  const code = (event.data as { module: string }).module;
  const module = await majorsDoc(tx, tenantId, code);
  const majors = module?.majors ?? [];
  let created = false;
  await applyFold<ModuleRecordDoc>(tx, MODULE_RECORDS, tenantId, aggregateIdOfStream(event.streamName), event, (doc, e) => {
    const next = foldModuleRecord(doc, e);
    if (!next || next === doc) return next;
    created = doc === null;
    const mapped = { ...next, values: upcastToCurrent(next.written, next.major, majors) };
    if (e.type !== 'ModuleRecordCreated' && e.type !== 'ModuleRecordAmended') return mapped;
    const minor = next.minor ?? majors.find((m) => m.major === next.major)?.minor;
    return minor === undefined ? mapped : { ...mapped, minor };
  });
  if (!created) return;
  // Slots before the records in the write-back: a replay after a partial write may give a record a second slot
  // (re-mapped twice, harmlessly), never leave one without.
  const slots = module?.slots ?? 0;
  const position = Number(event.position);
  tx.put<RecordSlotDoc>(MODULE_RECORD_SLOTS, {
    tenantId,
    id: slotId(code, slots),
    recordId: aggregateIdOfStream(event.streamName),
    _position: position,
  });
  tx.put<ModuleMajorsDoc>(MODULE_RECORD_SLOTS, {
    tenantId,
    id: code,
    majors,
    slots: slots + 1,
    _position: Math.max(position, module?._position ?? 0),
  });
}

export const moduleRecordsProjection: Projection = {
  name: MODULE_RECORDS_PROJECTION,
  version: 1,
  collections: {
    [MODULE_RECORD_SLOTS]: [],
    [MODULE_RECORDS]: [
      { keys: { tenantId: 1, module: 1, createdAt: 1, id: 1 }, name: 'by_module_created' },
      { keys: { tenantId: 1, module: 1, patientId: 1, createdAt: 1, id: 1 }, name: 'by_module_patient_created' },
      { keys: { tenantId: 1, module: 1, state: 1, createdAt: 1, id: 1 }, name: 'by_module_state_created' },
      { keys: { tenantId: 1, module: 1, updatedAt: 1, id: 1 }, name: 'by_module_updated' },
      { keys: { tenantId: 1, patientId: 1, id: 1 }, name: 'by_patient' },
    ],
  },
  eventTypes: [...MODULE_EVENT_TYPES, ...MODULE_RECORD_EVENT_TYPES],
  handle(event, tx) {
    const tenantId = tenantOfStream(event.streamName);
    return MODULE_TYPES.has(event.type) ? onModuleEvent(event, tx, tenantId) : onRecordEvent(event, tx, tenantId);
  },
};
