// The groups of the service with, when the records read model (projection 'generadorRecords') is not registered yet, a
// stand-in that keeps what the patient's history and the widgets read of it: a doc per record {id, module, patientId}.
import type { GroupModule } from '../../src/http/groupModule.js';
import { registeredGroups } from '../../src/http/groups.js';
import type { Projection } from '../../src/projections/runner/projection.js';
import { aggregateIdOfStream, tenantOfStream } from '../../src/stores/eventStore.js';
import { MODULE_RECORDS, RECORDS_PROJECTION } from '../../src/queries/generador/patientModuleRecords.js';

const standIn: Projection = {
  name: RECORDS_PROJECTION,
  version: 1,
  collections: { [MODULE_RECORDS]: [{ keys: { tenantId: 1, patientId: 1, id: 1 }, name: 'by_patient' }] },
  eventTypes: ['ModuleRecordCreated'],
  handle(event, tx) {
    const data = event.data as { module: string; patientId: string | null };
    const id = aggregateIdOfStream(event.streamName);
    tx.put(MODULE_RECORDS, {
      tenantId: tenantOfStream(event.streamName),
      id,
      module: data.module,
      patientId: data.patientId,
      _position: Number(event.position),
    });
  },
};

export function groupsWithModuleRecords(): GroupModule[] {
  const groups = registeredGroups();
  if (groups.some((g) => g.projections.some((p) => p.name === RECORDS_PROJECTION))) return groups;
  return groups.map((g) => (g.tag === 'Generador' ? { ...g, projections: [...g.projections, standIn] } : g));
}
