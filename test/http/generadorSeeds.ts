// Modules and their records appended straight to the log (as the Generador's deciders would write them), for the parts
// that build on them before the definition and record routes exist: roles, the change feed, widgets, history.
import { randomUUID } from 'node:crypto';
import type { TestServer } from '../support/harness.js';
import type { EventMetadata } from '../../src/stores/eventStore.js';
import { moduleStream } from '../../src/commands/generador/module/moduleEvents.js';
import { moduleRecordStream } from '../../src/commands/generador/record/moduleRecordEvents.js';
import type { ModuleDefinition, RecordValues } from '../../src/commands/generador/shared/definitionTypes.js';

const meta = (tenantId: string, occurredAt = new Date().toISOString()): EventMetadata => ({
  tenantId,
  actor: 'seed',
  sessionId: null,
  correlationId: randomUUID(),
  causationId: null,
  commandId: randomUUID(),
  occurredAt,
  ip: null,
  userAgent: null,
  reason: null,
});

export const vaccineDefinition = (overrides: Partial<ModuleDefinition> = {}): ModuleDefinition => ({
  name: 'Vacunación hepatitis B',
  patientLinked: true,
  fields: [
    { name: 'dose', label: 'Dosis', type: 'integer', required: true, minimum: 1, maximum: 4 },
    { name: 'lot', label: 'Lote', type: 'text' },
  ],
  listFields: ['dose'],
  filterFields: ['dose'],
  sortFields: ['dose'],
  ...overrides,
});

/** A published module of the company, its read models caught up. */
export async function seedModule(server: TestServer, tenantId: string, code: string, definition = vaccineDefinition()): Promise<void> {
  const version = { major: 1, minor: 0 };
  const { position } = await server.services.events.appendToStream(
    moduleStream(tenantId, code),
    [
      { id: randomUUID(), type: 'ModuleDefined', data: { code, definition, version }, metadata: meta(tenantId) },
      { id: randomUUID(), type: 'ModulePublished', data: { version }, metadata: meta(tenantId) },
    ],
    { expectedRevision: 'no_stream' },
  );
  await server.services.projections.waitFor(position);
}

/** A later event of a record (an amendment, a transition, an archive), its read models caught up. */
export async function seedRecordEvent(server: TestServer, tenantId: string, recordId: string, type: string, data: Record<string, unknown>) {
  const { position } = await server.services.events.appendToStream(
    moduleRecordStream(tenantId, recordId),
    [{ id: randomUUID(), type, data, metadata: meta(tenantId) }],
    { expectedRevision: 'stream_exists' },
  );
  await server.services.projections.waitFor(position);
}

/** A record of the module created (and, with `state`, in that state), its read models caught up; its id. */
export async function seedRecord(
  server: TestServer,
  tenantId: string,
  record: { module: string; patientId: string | null; values: RecordValues; state?: string | null; occurredAt?: string },
): Promise<{ id: string; position: bigint }> {
  const id = randomUUID();
  const data = {
    recordId: id,
    module: record.module,
    major: 1,
    patientId: record.patientId,
    values: record.values,
    state: record.state ?? null,
  };
  const { position } = await server.services.events.appendToStream(
    moduleRecordStream(tenantId, id),
    [{ id: randomUUID(), type: 'ModuleRecordCreated', data, metadata: meta(tenantId, record.occurredAt) }],
    { expectedRevision: 'no_stream' },
  );
  await server.services.projections.waitFor(position);
  return { id, position };
}
