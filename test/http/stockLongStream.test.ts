// A product's stock in one warehouse with a long kardex (thousands of movements on one stream) stays cheap over HTTP:
// an issue, with or without an Idempotency-Key, reads the latest snapshot and the events after it, not the history, and
// a keyed retry whose answer record was lost (a crash between the append and the record) answers as the first time,
// from an event that now lies before the latest snapshot. Cost is counted in events read (a counting store), never timed.
import assert from 'node:assert/strict';
import { countingEventStore, type ReadCounts } from '../support/countingEventStore.js';
import { testMetadata } from '../support/eventFixtures.js';
import { expectStatus, startProductosWorld, type Answer, type ProductosWorld } from './productosWorld.js';
import { streamName, type EventStore } from '../../src/stores/eventStore.js';
import { stockId } from '../../src/commands/productos/stockEvents.js';
import { DEFAULT_SNAPSHOT_EVERY, snapshotStreamOf } from '../../src/commands/snapshots.js';
import { newId } from '../../src/commands/eventIds.js';

const HISTORY = 5_000;
/** Events one movement may read from the stock's streams: the snapshot, the tail since it, the keyed run. */
const READ_BOUND = DEFAULT_SNAPSHOT_EVERY + 20;

describe('HTTP stock movements on a stream with a long history', function () {
  this.timeout(180_000);
  let w: ProductosWorld;
  let reads: ReadCounts;
  let inner: EventStore;
  /** While true, the idempotency guard's answer records are refused, as a crash right after the append would lose them. */
  let loseAnswerRecords = false;
  let productId: string;
  let warehouseId: string;
  let stream: string;
  before(async () => {
    w = await startProductosWorld();
    inner = w.server.services.events;
    // The idempotency guard holds the store it was built with: its answer records are refused on that store itself.
    const append = inner.appendToStream.bind(inner);
    inner.appendToStream = (s, events, options) =>
      loseAnswerRecords && s.includes('.idempotency-')
        ? Promise.reject(new Error('simulated: the process died before the answer was recorded'))
        : append(s, events, options);
    const counting = countingEventStore(inner);
    reads = counting.reads;
    w.server.services.events = counting.store;
    const product = await w.product(w.a, { lotTracked: false, expiryTracked: false, category: 'needle', prescriptionDrug: false });
    productId = product.id as string;
    warehouseId = await w.warehouse(w.a);
    const companyId = w.server.admin.companyId;
    stream = streamName(companyId, 'stock', stockId(productId, warehouseId));
    expectStatus(await receive(1), 201);
    await grow(HISTORY);
  });
  after(async () => w?.close());

  const receive = (quantity: number, headers: Record<string, string> = {}): Promise<Answer> =>
    w.post(
      `/productos/${productId}/ingresos`,
      { warehouseId, quantity, supplier: 'Droguería Sur', documentNumber: 'F001-9', unitCost: { amount: 2, currency: 'PEN' } },
      w.a,
      headers,
    );
  const issue = (headers: Record<string, string> = {}): Promise<Answer> =>
    w.post(`/productos/${productId}/salidas`, { warehouseId, quantity: 1 }, w.a, headers);
  const stockReads = (): number => reads.under(`${w.server.admin.companyId}.stock`);
  /** Events read from the long stream and its snapshots only. */
  const longReads = (): number => (reads.byStream.get(stream) ?? 0) + (reads.byStream.get(snapshotStreamOf(stream)) ?? 0);
  const settled = async (): Promise<void> => {
    await w.server.services.processes.waitFor(await w.server.services.events.headPosition());
  };

  /** `count` receipts of one unit appended straight to the stream (years of kardex), in batches, as the decider writes them. */
  async function grow(count: number): Promise<void> {
    const [last] = await inner.readStream(stream, { direction: 'backwards', maxCount: 1 });
    let revision = last!.revision;
    const first = last!.data as { balanceAfter: number; valueAfter: number };
    for (let i = 0; i < count; i += 1000) {
      const batch = Array.from({ length: Math.min(1000, count - i) }, (_, j) => {
        const balanceAfter = first.balanceAfter + i + j + 1;
        const data = { ...last!.data, movementId: newId(), quantity: 1, lotBalanceAfter: balanceAfter, balanceAfter };
        return {
          id: newId(),
          type: 'StockReceived',
          data: { ...data, valueAfter: 2 * balanceAfter },
          metadata: testMetadata(last!.metadata.tenantId),
        };
      });
      revision = (await inner.appendToStream(stream, batch, { expectedRevision: revision })).nextExpectedRevision;
    }
  }

  it('issues with and without an Idempotency-Key reading the snapshot and a short tail, not the history', async () => {
    const first = expectStatus(await issue(), 201);
    assert.equal(first.body.lines[0].balanceAfter, HISTORY, 'the balance folded from the whole history');
    let most = 0;
    for (let i = 0; i < DEFAULT_SNAPSHOT_EVERY + 30; i++) {
      reads.reset();
      const answer = expectStatus(await issue(i % 2 ? { 'Idempotency-Key': `issue-${i}` } : {}), 201);
      assert.equal(answer.body.lines[0].balanceAfter, HISTORY - i - 1);
      most = Math.max(most, stockReads());
    }
    assert.ok(most <= READ_BOUND, `a movement read up to ${most} events of the stock's streams (history ${HISTORY})`);
  });

  it('transfers into and out of the long stream reading O(recent), in the request and in the process manager that completes it', async () => {
    const other = await w.warehouse(w.a);
    expectStatus(
      await w.post(`/productos/${productId}/ingresos`, { warehouseId: other, quantity: 50, supplier: 'S', documentNumber: 'F-1' }),
      201,
    );
    await settled();
    reads.reset();
    const into = await w.post(`/productos/${productId}/transferencias`, {
      fromWarehouseId: other,
      toWarehouseId: warehouseId,
      quantity: 5,
    });
    expectStatus(into, 201);
    await settled();
    assert.ok(longReads() <= READ_BOUND, `a transfer into the long stream read ${longReads()} of its events`);
    reads.reset();
    const out = await w.post(`/productos/${productId}/transferencias`, { fromWarehouseId: warehouseId, toWarehouseId: other, quantity: 5 });
    expectStatus(out, 201);
    await settled();
    assert.ok(longReads() <= READ_BOUND, `a transfer out of the long stream (and its completion) read ${longReads()} of its events`);
  });

  it('answers a keyed retry whose answer record was lost as the first time, after a snapshot, reading few events', async () => {
    loseAnswerRecords = true;
    const key = { 'Idempotency-Key': 'issue-after-a-crash' };
    const first = expectStatus(await issue(key), 201);
    loseAnswerRecords = false;
    for (let i = 0; i < 2 * DEFAULT_SNAPSHOT_EVERY + 10; i++) expectStatus(await receive(1), 201);
    const length = (await inner.readStream(stream, { direction: 'backwards', maxCount: 1 }))[0]!.revision + 1;
    reads.reset();
    const retried = expectStatus(await issue(key), 201);
    assert.ok(stockReads() <= READ_BOUND, `the retry read ${stockReads()} events of the stock's streams`);
    assert.equal(retried.headers.get('idempotent-replayed'), null, 'answered by the command, not by a recorded answer');
    assert.deepEqual(retried.body, first.body, 'the same movement, lines and balances as the first answer');
    assert.equal((await inner.readStream(stream, { direction: 'backwards', maxCount: 1 }))[0]!.revision + 1, length, 'nothing moved twice');
  });
});
