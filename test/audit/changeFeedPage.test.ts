// A change feed page over a real SQLite log: a full page resumes after its last item, a page that hits the scan budget
// resumes after the last event read (never skipping one), and hidden categories are skipped, not counted.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
import type { EventStore } from '../../src/stores/eventStore.js';
import { readFeedPage, type FeedFilter } from '../../src/queries/sistema/changeFeed.js';
import type { ReadServices } from '../../src/readServices.js';
import { newEvent, uniqueTenant } from '../support/eventFixtures.js';

describe('Change feed page (readFeedPage)', () => {
  let dir: string;
  let events: EventStore;
  let services: ReadServices;
  const tenant = uniqueTenant();
  const clients = new Set(['clientes:read']);
  const filter = (over: Partial<FeedFilter> = {}): FeedFilter => ({
    permissions: clients,
    recordTypes: null,
    types: null,
    patientId: null,
    ...over,
  });
  const append = (category: string, id: string, type = 'SomethingRecorded') =>
    events.appendToStream(`${tenant}.${category}-${id}`, [newEvent(tenant, {}, type)], { expectedRevision: 'any' });

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'feed-page-'));
    events = await openSqliteEventStore({ file: path.join(dir, 'events.sqlite'), pollMs: 100 });
    // No patient-owned category is shown here: the audit trail's owners are never asked for.
    services = { events, projections: {} } as unknown as ReadServices;
    await append('client', 'c1', 'ClientRegistered');
    for (let i = 0; i < 30; i++) await append('accessLog', '20260101', 'RecordAccessed');
    await append('nursingNote', 'n1', 'NursingNoteRecorded');
    await append('client', 'c2', 'ClientRegistered');
    await append('client', 'c2', 'ClientUpdated');
  });
  after(async () => {
    await events.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('resumes after the last item of a full page', async () => {
    const page = await readFeedPage(services, tenant, { after: 0n, limit: 2, scanBudget: 1000 }, filter());
    assert.deepEqual(
      page.items.map((e) => [e.recordId, e.type]),
      [
        ['c1', 'ClientRegistered'],
        ['c2', 'ClientRegistered'],
      ],
    );
    assert.equal(page.next, BigInt(page.items[1]!.position));
    const rest = await readFeedPage(services, tenant, { after: page.next, limit: 2, scanBudget: 1000 }, filter());
    assert.deepEqual(
      rest.items.map((e) => e.type),
      ['ClientUpdated'],
    );
    assert.equal(rest.next, rest.head);
  });

  it('stops at the scan budget with fewer items, resuming after the last event read', async () => {
    const first = await readFeedPage(services, tenant, { after: 0n, limit: 10, scanBudget: 10 }, filter());
    assert.deepEqual(
      first.items.map((e) => e.recordId),
      ['c1'],
    );
    assert.ok(first.next < first.head);
    const seen: string[] = [];
    let after = 0n;
    for (let i = 0; i < 20 && after < first.head; i++) {
      const page = await readFeedPage(services, tenant, { after, limit: 10, scanBudget: 10 }, filter());
      seen.push(...page.items.map((e) => `${e.recordId}:${e.type}`));
      assert.ok(page.next > after, 'always advances');
      after = page.next;
    }
    assert.deepEqual(seen, ['c1:ClientRegistered', 'c2:ClientRegistered', 'c2:ClientUpdated']);
  });

  it('filters by record type and event type within what the caller may see', async () => {
    const notes = await readFeedPage(
      services,
      tenant,
      { after: 0n, limit: 10, scanBudget: 1000 },
      filter({ recordTypes: new Set(['nursingNote']) }),
    );
    assert.deepEqual(notes.items, []);
    const updated = await readFeedPage(
      services,
      tenant,
      { after: 0n, limit: 10, scanBudget: 1000 },
      filter({ types: new Set(['ClientUpdated']) }),
    );
    assert.deepEqual(
      updated.items.map((e) => e.type),
      ['ClientUpdated'],
    );
  });
});
