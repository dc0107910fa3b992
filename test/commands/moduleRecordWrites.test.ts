// Records of a company-defined module written over a real SQLite store: the module folded from its stream, the patient
// and the referenced records read from the company's streams, and an amendment moving an old record onto the new major.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { CommandContext } from '../../src/commands/handleCommand.js';
import { DomainError } from '../../src/commands/decider.js';
import { failedFields } from '../../src/commands/givenWhenThen.js';
import { registration } from '../../src/commands/pacientes/patientFixtures.js';
import { registerPatient } from '../../src/commands/pacientes/patientWrites.js';
import { moduleStream, type ModuleEvent } from '../../src/commands/generador/module/moduleEvents.js';
import type { ModuleDefinition } from '../../src/commands/generador/shared/definitionTypes.js';
import { moduleRecordStream } from '../../src/commands/generador/record/moduleRecordEvents.js';
import {
  amendModuleRecord,
  archiveModuleRecord,
  createModuleRecord,
  moduleRecordIdFor,
  transitionModuleRecord,
} from '../../src/commands/generador/record/moduleRecordWrites.js';
import { streamName, type EventStore } from '../../src/stores/eventStore.js';
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
import { testMetadata, uniqueTenant } from '../support/eventFixtures.js';

const v1: ModuleDefinition = {
  name: 'Vacunación hepatitis B',
  patientLinked: true,
  fields: [
    { name: 'dose', label: 'Dose', type: 'integer', required: true },
    { name: 'lot', label: 'Lot', type: 'text' },
    { name: 'nurse', label: 'Nurse', type: 'reference', refersTo: 'staff' },
    { name: 'previous', label: 'Previous dose', type: 'reference', refersTo: 'module', module: 'hepb' },
  ],
  filterFields: [],
  sortFields: [],
  states: {
    initial: 'draft',
    states: [
      { name: 'draft', label: 'Draft' },
      { name: 'signed', label: 'Signed' },
    ],
    transitions: [{ name: 'sign', label: 'Sign', from: ['draft'], to: 'signed', signs: true }],
  },
};
const v2: ModuleDefinition = {
  ...v1,
  fields: [
    ...v1.fields.filter((f) => f.name !== 'lot'),
    { name: 'batch', label: 'Batch', type: 'text' },
    { name: 'site', label: 'Site', type: 'text', required: true },
  ],
};

describe('module record writes', () => {
  let dir: string;
  let events: EventStore;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'module-records-'));
    events = await openSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  });
  afterEach(async () => {
    await events.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const ctxOf = (tenantId: string, idempotencyKey: string | null = null): CommandContext => ({
    tenantId,
    actor: 'nurse-1',
    sessionId: null,
    correlationId: 'c-1',
    ip: null,
    userAgent: null,
    idempotencyKey,
  });
  const append = (tenantId: string, stream: string, list: { type: string; data: object }[]) =>
    events.appendToStream(
      stream,
      list.map((e) => ({ id: randomUUID(), type: e.type, data: e.data as Record<string, unknown>, metadata: testMetadata(tenantId) })),
      { expectedRevision: 'any' },
    );
  const defineModule = async (tenantId: string, code: string, status: 'draft' | 'published' = 'published') => {
    const list: ModuleEvent[] = [{ type: 'ModuleDefined', data: { code, definition: v1, version: { major: 1, minor: 0 } } }];
    if (status === 'published') list.push({ type: 'ModulePublished', data: { version: { major: 1, minor: 0 } } });
    await append(tenantId, moduleStream(tenantId, code), list);
  };
  const hire = async (tenantId: string): Promise<string> => {
    const staffId = randomUUID();
    await append(tenantId, streamName(tenantId, 'staff', staffId), [{ type: 'StaffHired', data: { staffId } }]);
    return staffId;
  };
  const patientOf = async (tenantId: string): Promise<string> => (await registerPatient(events, ctxOf(tenantId), registration)).patientId;
  const refused = async (write: Promise<unknown>, code: string, fields?: string[]) =>
    assert.rejects(write, (err: unknown) => {
      assert.equal((err as { code?: string }).code, code, String(err));
      if (fields) assert.deepEqual(failedFields(err as DomainError), fields);
      return true;
    });

  it('creates a record in a published module, with the patient and references of the company, once per key', async () => {
    const tenantId = uniqueTenant();
    await defineModule(tenantId, 'hepb');
    const [patientId, nurse] = [await patientOf(tenantId), await hire(tenantId)];
    const ctx = ctxOf(tenantId, 'key-1');
    const recordId = moduleRecordIdFor(ctx.idempotencyKey);
    const input = { module: 'hepb', recordId, patientId, values: { dose: 1, lot: 'L1', nurse } };
    const { result } = await createModuleRecord({ events }, ctx, input);
    assert.equal(result.revision, 0);
    const again = await createModuleRecord({ events }, ctx, input);
    assert.equal(again.recordId, recordId);
    const stored = await events.readStream(moduleRecordStream(tenantId, recordId));
    assert.deepEqual(
      stored.map((e) => [e.type, e.data]),
      [['ModuleRecordCreated', { recordId, module: 'hepb', major: 1, minor: 0, patientId, values: input.values, state: 'draft' }]],
    );
    // Another module's record may be named by a module reference only when it is a record of that module.
    const second = { module: 'hepb', recordId: randomUUID(), patientId, values: { dose: 2, previous: recordId } };
    assert.equal((await createModuleRecord({ events }, ctxOf(tenantId), second)).result.revision, 0);
  });

  it('answers not-found for a draft or unknown module', async () => {
    const tenantId = uniqueTenant();
    await defineModule(tenantId, 'hepb', 'draft');
    const patientId = await patientOf(tenantId);
    const input = { recordId: randomUUID(), patientId, values: { dose: 1 } };
    await refused(createModuleRecord({ events }, ctxOf(tenantId), { ...input, module: 'hepb' }), 'not-found');
    await refused(createModuleRecord({ events }, ctxOf(tenantId), { ...input, module: 'nope' }), 'not-found');
  });

  it("refuses another company's patient and staff member, and a reference to a record of another module", async () => {
    const [tenantId, other] = [uniqueTenant(), uniqueTenant()];
    await defineModule(tenantId, 'hepb');
    await defineModule(tenantId, 'water');
    const [theirPatient, theirNurse] = [await patientOf(other), await hire(other)];
    const ctx = ctxOf(tenantId);
    await refused(
      createModuleRecord({ events }, ctx, { module: 'hepb', recordId: randomUUID(), patientId: theirPatient, values: { dose: 1 } }),
      'validation-failed',
      ['patientId'],
    );
    const patientId = await patientOf(tenantId);
    const waterId = randomUUID();
    await append(tenantId, moduleRecordStream(tenantId, waterId), [
      {
        type: 'ModuleRecordCreated',
        data: { recordId: waterId, module: 'water', major: 1, minor: 0, patientId, values: { dose: 1 }, state: 'draft' },
      },
    ]);
    const values = { dose: 1, nurse: theirNurse, previous: waterId };
    await refused(createModuleRecord({ events }, ctx, { module: 'hepb', recordId: randomUUID(), patientId, values }), 'validation-failed', [
      'values/nurse',
      'values/previous',
    ]);
    // A record of another module given to this module's writes is not there.
    await refused(amendModuleRecord({ events }, ctx, 'hepb', waterId, { dose: 2 }, null), 'not-found');
    await refused(archiveModuleRecord({ events }, ctx, 'hepb', waterId, 0), 'not-found');
  });

  it('amends a record written in an older major onto the new one, and signs only after the record is judged', async () => {
    const tenantId = uniqueTenant();
    await defineModule(tenantId, 'hepb');
    const patientId = await patientOf(tenantId);
    const ctx = ctxOf(tenantId);
    const { recordId } = await createModuleRecord({ events }, ctx, {
      module: 'hepb',
      recordId: randomUUID(),
      patientId,
      values: { dose: 1, lot: 'L1' },
    });
    const upcast = [
      { op: 'rename' as const, from: 'lot', to: 'batch' },
      { op: 'default' as const, field: 'site', value: 'deltoid' },
    ];
    await append(tenantId, moduleStream(tenantId, 'hepb'), [
      { type: 'ModuleMajorVersionAdded', data: { definition: v2, version: { major: 2, minor: 0 }, upcast, changes: [] } },
    ]);
    await refused(amendModuleRecord({ events }, ctx, 'hepb', recordId, { dose: 2 }, 5), 'precondition-failed');
    const result = await amendModuleRecord({ events }, ctx, 'hepb', recordId, { dose: 2 }, 0);
    assert.deepEqual(result.events[0]!.data, {
      module: 'hepb',
      major: 2,
      minor: 0,
      values: { dose: 2, batch: 'L1', site: 'deltoid' },
      cleared: [],
      rewritten: true,
      patientId,
    });
    assert.equal(result.state.major, 2);
    let confirmed = 0;
    const confirm = async () => void confirmed++;
    await refused(transitionModuleRecord({ events }, ctx, 'hepb', recordId, 'sign', confirm, 0), 'precondition-failed');
    await refused(transitionModuleRecord({ events }, ctx, 'hepb', recordId, 'approve', confirm, 1), 'not-found');
    assert.equal(confirmed, 0);
    const signed = await transitionModuleRecord({ events }, ctx, 'hepb', recordId, 'sign', confirm, 1);
    assert.equal(confirmed, 1);
    assert.deepEqual([signed.state.state, signed.state.signed], ['signed', true]);
    await archiveModuleRecord({ events }, ctx, 'hepb', recordId, null);
    await refused(archiveModuleRecord({ events }, ctx, 'hepb', recordId, null), 'record-archived');
  });
});
