import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { kardexCsv } from './stock.js';

describe('kardexCsv', () => {
  it('lets the event loop run between chunks of a long kardex (an export that can run long, issue 20 item 5)', async () => {
    const rows = Array.from({ length: 3500 }, (_, i) => ({ at: '2026-01-01T00:00:00Z', type: 'issue', quantity: i, reason: '=x' }));
    let turns = 0;
    let ticking = true;
    void (async () => {
      while (ticking) {
        await nextTurn();
        turns++;
      }
    })();
    const text = await kardexCsv(rows, { productCode: 'P-1', productName: '@SUM(1)' });
    ticking = false;
    assert.equal(text.split('\r\n').length, 3502, 'a header, 3500 rows and the closing line end');
    assert.match(text.split('\r\n')[1]!, /'=x.*'@SUM\(1\)$/);
    assert.ok(turns >= 2, `${turns} turns of the event loop while 4 chunks were written`);
  });
});
