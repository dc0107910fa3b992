// Registration over a real SQLite store: the patient decider runs once (its answer before the document claim is the
// one appended), and a refused registration still holds no document.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CommandContext } from '../../src/commands/handleCommand.js';
import { DomainError } from '../../src/commands/decider.js';
import { patientDecider } from '../../src/commands/pacientes/patientDecider.js';
import { registration } from '../../src/commands/pacientes/patientFixtures.js';
import { documentGuardId, registerPatient } from '../../src/commands/pacientes/patientWrites.js';
import type { EventStore } from '../../src/stores/eventStore.js';
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
import { uniqueTenant } from '../support/eventFixtures.js';

describe('registerPatient', () => {
  let dir: string;
  let store: EventStore;
  const realDecide = patientDecider.decide.bind(patientDecider);
  let decisions = 0;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'register-'));
    store = await openSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
    decisions = 0;
    patientDecider.decide = (command, state) => {
      decisions++;
      return realDecide(command, state);
    };
  });
  afterEach(async () => {
    patientDecider.decide = realDecide;
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const ctxOf = (tenantId: string): CommandContext => ({
    tenantId,
    actor: 'nurse-1',
    sessionId: null,
    correlationId: 'c-1',
    ip: null,
    userAgent: null,
  });

  it('decides once and appends that decision', async () => {
    const ctx = ctxOf(uniqueTenant());
    const { patientId, result } = await registerPatient(store, ctx, registration);
    assert.equal(decisions, 1);
    assert.deepEqual(
      result.events.map((e) => e.type),
      ['PatientRegistered'],
    );
    const stored = await store.readStream(`${ctx.tenantId}.patient-${patientId}`);
    assert.equal(stored.length, 1);
    assert.equal((stored[0]!.data as { documentNumber: string }).documentNumber, registration.documentNumber);
  });

  it('refuses invalid data before claiming the document', async () => {
    const ctx = ctxOf(uniqueTenant());
    await assert.rejects(registerPatient(store, ctx, { ...registration, dryWeightKg: -1 }), DomainError);
    const guard = documentGuardId(ctx.tenantId, registration.documentType, registration.documentNumber);
    assert.deepEqual(await store.readStream(`${ctx.tenantId}.patientDocument-${guard}`), []);
  });
});
