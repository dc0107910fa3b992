// The command core over a real SQLite store: unconditional commands on one stream from many callers at once all
// land (serialized in-process, lost races retried), while If-Match keeps refusing stale revisions.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { handleCommand, PreconditionFailedError, type CommandContext } from '../../src/commands/handleCommand.js';
import type { CommandEnvelope, Decider } from '../../src/commands/decider.js';
import type { EventStore } from '../../src/stores/eventStore.js';
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
import { uniqueTenant } from '../support/eventFixtures.js';

type Count = CommandEnvelope<'Count', { by: number }>;
type Counted = { type: 'Counted'; data: { by: number } };
const counterDecider: Decider<Count, Counted, { total: number }> = {
  category: 'counter',
  initialState: { total: 0 },
  evolve: (s, e) => ({ total: s.total + e.data.by }),
  decide: (cmd) => [{ type: 'Counted', data: { by: cmd.data.by } }],
};

describe('handleCommand: concurrent commands on one stream', () => {
  let dir: string;
  let store: EventStore;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'commands-'));
    store = await openSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  });
  afterEach(async () => {
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

  it('applies 60 unconditional commands sent at once, none refused', async () => {
    const ctx = ctxOf(uniqueTenant());
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, () => handleCommand(store, counterDecider, { type: 'Count', aggregateId: 'c1', data: { by: 1 } }, ctx)),
    );
    const refused = results.filter((r) => r.status === 'rejected').map((r) => String(r.reason));
    assert.deepEqual(refused, []);
    const events = await store.readStream(`${ctx.tenantId}.counter-c1`);
    assert.equal(events.length, 60);
  });

  it('still refuses commands whose If-Match went stale while they waited', async () => {
    const ctx = ctxOf(uniqueTenant());
    await handleCommand(store, counterDecider, { type: 'Count', aggregateId: 'c1', data: { by: 1 } }, ctx);
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        handleCommand(store, counterDecider, { type: 'Count', aggregateId: 'c1', data: { by: 1 } }, ctx, { ifMatch: 0 }),
      ),
    );
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
    for (const r of results) if (r.status === 'rejected') assert.ok(r.reason instanceof PreconditionFailedError);
  });

  it('gives an unkeyed command random ids, and a retried keyed command the same name-based ids', async () => {
    const ctx = ctxOf(uniqueTenant());
    const count = (c: CommandContext) => handleCommand(store, counterDecider, { type: 'Count', aggregateId: 'c1', data: { by: 1 } }, c);
    const version = (id: string) => id[14];
    const unkeyed = await count(ctx);
    assert.equal(version(unkeyed.events[0]!.id), '4');
    const keyed = { ...ctx, idempotencyKey: 'scoped-key-1' };
    const first = await count(keyed);
    const retried = await count(keyed);
    assert.equal(version(first.events[0]!.id), '5');
    assert.deepEqual(
      retried.events.map((e) => e.id),
      first.events.map((e) => e.id),
    );
    assert.equal((await store.readStream(`${ctx.tenantId}.counter-c1`)).length, 2);
  });
});
