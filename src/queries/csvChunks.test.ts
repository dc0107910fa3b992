import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { csvText } from './csv.js';
import { csvTextInTurns } from './csvChunks.js';

describe('csvTextInTurns', () => {
  const header = ['name', 'amount', 'note'];
  const rows = Array.from({ length: 2500 }, (_, i) => [
    `Quispe, María ${i}`,
    i % 7 === 0 ? -i : i * 1.5,
    i % 5 === 0 ? '=HYPERLINK("x")' : 'a "quoted" note',
  ]);

  it('writes exactly what csvText writes', async () => {
    assert.equal(await csvTextInTurns(header, rows, 1000), csvText(header, rows));
    assert.equal(await csvTextInTurns(header, []), csvText(header, []));
  });

  it('lets the event loop run between chunks of rows', async () => {
    let turns = 0;
    let ticking = true;
    void (async () => {
      while (ticking) {
        await nextTurn();
        turns++;
      }
    })();
    await csvTextInTurns(header, rows, 1000);
    ticking = false;
    assert.ok(turns >= 2, `${turns} turns of the event loop while 3 chunks were written`);
  });
});
