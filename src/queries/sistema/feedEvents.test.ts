// Every category the service writes into company streams has a feed decision (fail-closed), and secrets never leave.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { eventVisible, FEED_VISIBILITY, feedVisible, toFeedEvent, withoutSecrets } from './feedEvents.js';
import { recordedEvent } from '../../../test/support/eventFixtures.js';

const SRC = path.resolve(import.meta.dirname, '../..');
/** Where company streams are written; the platform's own aggregates (src/commands/platform) live under `platform.`. */
const WRITERS = ['commands', 'http', 'processes', 'integrity'];

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return full.endsWith(path.join('commands', 'platform')) ? [] : sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** The categories the write side names: decider categories, their constants, unique-claim guards, literal stream names. */
function writtenCategories(): Set<string> {
  const text = WRITERS.flatMap((dir) => sources(path.join(SRC, dir))).map((file) => fs.readFileSync(file, 'utf8'));
  const all = text.join('\n');
  const found = new Set<string>();
  const add = (pattern: RegExp) => {
    for (const match of all.matchAll(pattern)) found.add(match[1]!);
  };
  add(/_CATEGORY\s*=\s*'([a-zA-Z]+)'/g);
  add(/category:\s*'([a-zA-Z]+)'/g);
  add(/uniqueClaimDecider\(\s*'([a-zA-Z]+)'/g);
  add(/guardOf\(\s*'[^']*',\s*'([a-zA-Z]+)'/g);
  add(/guard\(\s*'([a-zA-Z]+)'/g);
  add(/streamName\(\s*[\w.]+,\s*'([a-zA-Z]+)'/g);
  // Bloodlines name their categories in a map, and their serial guards after them.
  const lines = /LINE_CATEGORIES[^=]*=\s*\{([^}]*)\}/.exec(all)?.[1] ?? '';
  for (const match of lines.matchAll(/'([a-zA-Z]+)'/g)) found.add(match[1]!).add(`${match[1]!}Serial`);
  return found;
}

const event = (stream: string, data: Record<string, unknown>) =>
  recordedEvent(stream, 'SomethingRecorded', data, { id: '0b7a3f1e-2f7e-4a53-9d4c-1f5b6c7d8e9f', occurredAt: '2026-01-02T03:04:05.000Z' });

describe('Change feed events', () => {
  it('decides on every category the service writes into company streams (a new one without a decision fails here)', () => {
    const written = writtenCategories();
    for (const known of ['patient', 'nursingNote', 'accessLog', 'idempotency', 'staffDocument', 'arterialLineSerial'])
      assert.ok(written.has(known), `the walk finds ${known}`);
    const undecided = [...written].filter((category) => !Object.hasOwn(FEED_VISIBILITY, category));
    assert.deepEqual(undecided, [], `categories without a feed decision: ${undecided.join(', ')}`);
  });

  it('is fail-closed: an unknown category, a snapshot or bookkeeping is visible to nobody', () => {
    const everything = new Set(['pacientes:read', 'dialisis:read', 'clientes:read', 'sistema:audit']);
    assert.equal(feedVisible('somethingNew', everything), false);
    assert.equal(feedVisible('patientSnapshot', everything), false);
    assert.equal(feedVisible('accessLog', everything), false);
    assert.equal(feedVisible('patientDocument', everything), false);
    assert.equal(feedVisible('toString', everything), false);
    assert.equal(feedVisible('patient', everything), true);
    assert.equal(feedVisible('nursingNote', new Set(['clientes:read'])), false);
    assert.equal(feedVisible('client', new Set(['clientes:read'])), true);
  });

  it('removes secret-bearing fields at any depth', () => {
    const data = { name: 'x', passwordHash: 'h', nested: { secretHash: 's', encryptedSecret: 'e', keep: 1 }, list: [{ tokenHash: 't' }] };
    assert.deepEqual(withoutSecrets(data), { name: 'x', nested: { keep: 1 }, list: [{}] });
  });

  it('shapes an event with its record, patient and metadata, never its address or session', () => {
    const shaped = toFeedEvent(event('t1.nursingNote-n1', { text: 'stable', refreshTokenHash: 'x' }), 'p1');
    assert.deepEqual(shaped, {
      id: '0b7a3f1e-2f7e-4a53-9d4c-1f5b6c7d8e9f',
      position: '42',
      type: 'SomethingRecorded',
      recordType: 'nursingNote',
      recordId: 'n1',
      patientId: 'p1',
      occurredAt: '2026-01-02T03:04:05.000Z',
      actor: 'u1',
      correlationId: 'c1',
      reason: null,
      data: { text: 'stable' },
    });
  });

  it("shows a module's record events to readers of that module (or of every module), never by category alone", () => {
    const record = recordedEvent('t1.moduleRecord-r1', 'ModuleRecordCreated', { module: 'vacuna-hb', patientId: 'p1' });
    assert.equal(eventVisible(record, new Set(['mod.vacuna-hb:read'])), true);
    assert.equal(eventVisible(record, new Set(['mod.*'])), true);
    assert.equal(eventVisible(record, new Set(['mod.vacuna-hb:write', 'mod.agua:read', 'generador:read'])), false);
    assert.equal(feedVisible('moduleRecord', new Set(['mod.*'])), false);
    assert.equal(eventVisible(recordedEvent('t1.generatedModule-x', 'ModulePublished'), new Set(['generador:read'])), true);
  });
});
