// A CSV of many rows built a chunk at a time (issue 20 item 5): between chunks the event loop serves other requests, so
// a report of 100k rows never holds it for the whole text. The same text as csvText (csv.ts).
import { setImmediate as nextTurn } from 'node:timers/promises';
import { csvCell } from './csv.js';

/** ~1-2 ms of work per chunk. */
export const CSV_ROWS_PER_TURN = 1000;

export async function csvTextInTurns(
  header: readonly string[],
  rows: readonly (readonly unknown[])[],
  rowsPerTurn = CSV_ROWS_PER_TURN,
): Promise<string> {
  const lines: string[] = [header.join(',')];
  for (let start = 0; start < rows.length; start += rowsPerTurn) {
    if (start > 0) await nextTurn();
    const end = Math.min(rows.length, start + rowsPerTurn);
    for (let i = start; i < end; i++) lines.push(rows[i]!.map(csvCell).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}
