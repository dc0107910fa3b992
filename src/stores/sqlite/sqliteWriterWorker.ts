// The writer thread: its own connection to the event file, running the store's batches in arrival order.
// The store sends a batch per tick without waiting for the previous one; every batch that arrived while a
// commit was running is written by the next single transaction (one fsync), each keeping its own outcomes.
// Its fsyncs (and WAL checkpoints) no longer stall the event loop.
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { prepareStatements } from './sqliteStatements.js';
import { createBatchWriter, type PreparedAppend } from './sqliteAppendBatch.js';
import { errorToWire, outcomeToWire, type FromWriter, type ToWriter, type WriterSettings } from './sqliteWriterWire.js';

const port = parentPort!;
const settings = workerData as WriterSettings;
const send = (message: FromWriter) => port.postMessage(message);

let db: Database.Database | null = null;

/** The message just received plus every one already waiting. */
function drainPort(first: ToWriter): ToWriter[] {
  const messages = [first];
  for (let next = receiveMessageOnPort(port); next; next = receiveMessageOnPort(port)) messages.push(next.message as ToWriter);
  return messages;
}

try {
  db = new Database(settings.file, { fileMustExist: true, timeout: settings.busyTimeoutMs });
  for (const pragma of settings.pragmas) db.pragma(pragma);
  const write = createBatchWriter(db, prepareStatements(db));
  port.on('message', (first: ToWriter) => {
    const messages = drainPort(first);
    const batches = messages.filter((m): m is Extract<ToWriter, { type: 'batch' }> => m.type === 'batch');
    if (batches.length > 0) {
      const appends: PreparedAppend[] = batches.flatMap((b) => b.batch);
      try {
        const outcomes = write(appends).map(outcomeToWire);
        let at = 0;
        for (const b of batches) {
          send({ type: 'done', id: b.id, outcomes: outcomes.slice(at, at + b.batch.length) });
          at += b.batch.length;
        }
      } catch (err) {
        const error = errorToWire(err);
        for (const b of batches) send({ type: 'failed', id: b.id, error });
      }
    }
    if (messages.some((m) => m.type === 'close')) {
      db?.close();
      db = null;
      port.close(); // nothing else keeps the thread alive: it ends
    }
  });
  send({ type: 'ready' });
} catch (err) {
  db?.close();
  send({ type: 'unavailable', error: errorToWire(err) });
  port.close();
}
