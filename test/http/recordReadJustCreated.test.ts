// A record just created is never answered 404: its Location read right after the 201, without the write's minPosition,
// finds it in its stream while its read model is behind (with the projector thread a read model lands a few
// milliseconds after the answer). Reads of records that do not exist still answer 404.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { registeredGroups } from '../../src/http/groups.js';
import { monitoresGroup } from '../../src/http/routes/monitores/index.js';
import { monitoresProjection } from '../../src/projections/monitores/monitoresProjection.js';
import { held } from '../support/heldProjection.js';
import { expectStatus, startMonitoresWorld, unique, type MonitoresWorld } from './monitoresWorld.js';

describe('A record read right after its creation, while its read model is behind', () => {
  // The machines' projection holds every machine registration until released.
  const machines = held(monitoresProjection, ['MachineRegistered']);
  let w: MonitoresWorld;
  before(async () => {
    const groups = registeredGroups();
    groups[groups.indexOf(monitoresGroup)] = { ...monitoresGroup, projections: [machines.projection] };
    w = await startMonitoresWorld({ groups });
  });
  after(async () => {
    machines.release();
    await w?.close();
  });

  it('answers it from its stream (200, the record as created), and another id still 404', async () => {
    machines.hold();
    const code = unique('M-');
    const created = await w.register(w.a, { code });
    const location = created.headers.get('location')!;
    const read = await w.call(w.a, 'GET', location);
    const listed = await w.call(w.a, 'GET', `/monitores?limit=50`);
    assert.ok(!(expectStatus(listed, 200).body.items as { id: string }[]).some((m) => m.id === created.body.id), 'still not projected');
    assert.equal(expectStatus(read, 200).body.code, code);
    assert.equal(read.headers.get('etag'), created.headers.get('etag'));
    expectStatus(await w.call(w.a, 'GET', `/monitores/${randomUUID()}`), 404);
    // Another company's reader never finds it (isolation holds on the stream too).
    expectStatus(await w.call(w.b, 'GET', location), 404);
    machines.release();
  });
});
