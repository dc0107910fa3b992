// A batch's write-back fails half-way (a MongoDB election between two collections' bulk writes): the projection
// stops, resumes from its checkpoint, and must still hold every version of an amended note, not only the note.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createEmbeddedReadStore } from '../../src/stores/embedded/embeddedReadStore.js';
import { openSqliteEventStore } from '../../src/stores/sqlite/sqliteEventStore.js';
import { streamName, type EventStore, type NewEvent } from '../../src/stores/eventStore.js';
import type { Collection, ReadDoc, ReadStore } from '../../src/stores/readStore.js';
import { createProjectionRunner } from '../../src/projections/runner/projectionRunner.js';
import {
  NOTE_VERSIONS,
  NURSING_NOTES,
  PACIENTES_PROJECTION,
  pacientesProjection,
} from '../../src/projections/pacientes/pacientesProjection.js';
import { testMetadata } from '../support/eventFixtures.js';
import type { Logger } from '../../src/logger.js';

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const TENANT = 'tnotes1';

/** The embedded store seen as a remote one (no shared access: documents go through bulkWrite), with injectable failures. */
function remoteLike(inner: ReadStore, failBulkWrite: (collection: string) => boolean): ReadStore {
  return {
    kind: inner.kind,
    async collection<T extends ReadDoc>(name: string, indexes?: Parameters<ReadStore['collection']>[1]): Promise<Collection<T>> {
      const c = await inner.collection<T>(name, indexes);
      return {
        name: c.name,
        find: (...a) => c.find(...a),
        findOne: (...a) => c.findOne(...a),
        get: (...a) => c.get(...a),
        count: (...a) => c.count(...a),
        replace: (...a) => c.replace(...a),
        updateOne: (...a) => c.updateOne(...a),
        deleteOne: (...a) => c.deleteOne(...a),
        bulkWrite: (ops) => (failBulkWrite(name) ? Promise.reject(new Error(`bulk write to ${name} refused`)) : c.bulkWrite(ops)),
        drop: () => c.drop(),
      };
    },
    listCollections: () => inner.listCollections(),
    dropCollection: (name) => inner.dropCollection(name),
    close: async () => undefined,
  };
}

const content = (text: string) => ({ noteType: 'general', text, occurredAt: '2026-11-22T10:00:00.000Z' });
const noteEvent = (type: string, data: Record<string, unknown>): NewEvent => ({
  id: randomUUID(),
  type,
  data,
  metadata: testMetadata(TENANT, { actor: 'nurse-1' }),
});

describe('nursing note versions when a write-back fails half-way', () => {
  let dir: string;
  let events: EventStore;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'note-versions-'));
    events = await openSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  });
  afterEach(async () => {
    await events.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every version after the projection resumes from its checkpoint', async () => {
    const noteId = 'note1';
    const ids = { noteId, patientId: 'patient1' };
    const stream = streamName(TENANT, 'nursingNote', noteId);
    const store = createEmbeddedReadStore();
    const run = async (failBulkWrite: (collection: string) => boolean) => {
      const runner = createProjectionRunner({ events, reads: remoteLike(store, failBulkWrite), logger: quiet });
      runner.register(pacientesProjection);
      await runner.start();
      return runner;
    };

    await events.appendToStream(
      stream,
      [noteEvent('NursingNoteRecorded', { ...content('first'), ...ids, authorId: 'nurse-1', version: 1 })],
      {
        expectedRevision: 'no_stream',
      },
    );
    await (await run(() => false)).stop(); // the note is projected and checkpointed

    await events.appendToStream(
      stream,
      [noteEvent('NursingNoteAmended', { ...content('second'), ...ids, amendedBy: 'nurse-1', version: 2, reason: 'typo' })],
      { expectedRevision: 0 },
    );
    let refusals = 1;
    const failing = await run((name) => name.startsWith(NOTE_VERSIONS) && refusals-- > 0);
    assert.equal((await failing.status())[0]!.state, 'failed', 'the refused write stops the projection');
    await failing.stop();

    const second = await run(() => false);
    const note = await second.collection(PACIENTES_PROJECTION, NURSING_NOTES).get(TENANT, noteId);
    const versions = await second.collection(PACIENTES_PROJECTION, NOTE_VERSIONS).find(TENANT, { noteId }, { sort: { version: 1 } });
    await second.stop();
    assert.equal(note?.version, 2);
    assert.deepEqual(
      versions.items.map((v) => [v.version, v.text]),
      [
        [1, 'first'],
        [2, 'second'],
      ],
    );
  });
});
