// The company export's gzip NDJSON parts, defined once for the writer, the verifier and the importer: the line kinds,
// a writer that honours backpressure and counts the bytes it wrote, and a reader that never holds more than one line.
import type { ChainEventJson } from '../integrity/chainEventJson.js';
import { once } from 'node:events';
import fs from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip, createGzip } from 'node:zlib';
import type { SignedCheckpoint } from '../integrity/chainCheckpoints.js';

export const EXPORT_FORMAT = 'dialysis-company-export/v1' as const;
export const EVENTS_PART = 'events.ndjson.gz';
export const RECORDS_PART = 'records.ndjson.gz';

export interface ExportHeader {
  kind: 'header';
  format: typeof EXPORT_FORMAT;
  part: 'events' | 'records';
  exportId: string;
  tenant: string;
  /** The company's events after this position (exclusive; '0': from the start) up to `through` (inclusive). */
  after: string;
  through: string;
  /** The chain hash the first exported event links to: the genesis hash, or the hash of the event at `after`. */
  previousHash: string;
  exportedAt: string;
  /** Chained events in this part (events part). */
  events: number;
  /** What verifies the checkpoints of this part. */
  publicKey: { algorithm: 'Ed25519'; keyId: string; publicKeyPem: string };
}

/** One event of the company, with its chain hash (null for an event written before the company's chain began). */
export interface EventLine extends ChainEventJson {
  kind: 'event';
}

export interface CheckpointLine extends SignedCheckpoint {
  kind: 'checkpoint';
}

/** An event of the company's platform record (profile, modules, roles, status): not in the company's chain. */
export interface CompanyEventLine {
  kind: 'company';
  id: string;
  revision: number;
  type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

export interface RecordLine {
  kind: 'record';
  projection: string;
  collection: string;
  doc: Record<string, unknown>;
}

/** The last line: a part without it was cut short. */
export interface EndLine {
  kind: 'end';
  events?: number;
  lastHash?: string;
  records?: number;
}

export type ExportLine = ExportHeader | EventLine | CheckpointLine | CompanyEventLine | RecordLine | EndLine;

/** The export cannot be read, or does not verify: `line` names where. */
export class ExportRejectedError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly eventId: string | null = null,
    readonly position: string | null = null,
  ) {
    super(message);
    this.name = 'ExportRejectedError';
  }
}

export interface NdjsonGzWriter {
  write(line: ExportLine): Promise<void>;
  /** Compressed bytes written so far. */
  bytes(): number;
  close(): Promise<void>;
  /** Stops writing and removes the file. */
  abort(): Promise<void>;
}

/** A new file (0600, never over an existing one) of gzip NDJSON; write() waits while the gzip buffer is full. */
export function ndjsonGzWriter(file: string): NdjsonGzWriter {
  const gzip = createGzip();
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      callback(null, chunk);
    },
  });
  const done = pipeline(gzip, counter, fs.createWriteStream(file, { flags: 'wx', mode: 0o600 }));
  done.catch(() => undefined); // surfaced by write() and close()
  return {
    async write(line) {
      if (!gzip.write(JSON.stringify(line) + '\n')) await Promise.race([once(gzip, 'drain'), done]);
    },
    bytes: () => bytes,
    async close() {
      gzip.end();
      await done;
    },
    async abort() {
      gzip.destroy();
      await done.catch(() => undefined);
      await fs.promises.rm(file, { force: true });
    },
  };
}

const MAX_LINE_CHARS = 64 * 1024 * 1024;

/** The parsed lines of a gzip NDJSON part (a file path or a stream), one at a time, with their line numbers. */
export async function* readExportLines(source: string | Readable): AsyncGenerator<{ line: number; value: ExportLine }> {
  const gunzip = createGunzip();
  const input = typeof source === 'string' ? fs.createReadStream(source) : source;
  const piping = pipeline(input, gunzip).catch((err: unknown) => gunzip.destroy(err as Error));
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let line = 0;
  const parse = (text: string): ExportLine => {
    try {
      return JSON.parse(text) as ExportLine;
    } catch {
      throw new ExportRejectedError(`line ${line} is not JSON`, line);
    }
  };
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      pending += decoder.write(chunk);
      let newline: number;
      while ((newline = pending.indexOf('\n')) >= 0) {
        const text = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        line++;
        if (text.trim() !== '') yield { line, value: parse(text) };
      }
      if (pending.length > MAX_LINE_CHARS)
        throw new ExportRejectedError(`line ${line + 1} is longer than ${MAX_LINE_CHARS} characters`, line + 1);
    }
  } catch (err) {
    if (err instanceof ExportRejectedError) throw err;
    throw new ExportRejectedError(`not a gzip NDJSON export: ${(err as Error).message}`, line + 1);
  } finally {
    input.destroy();
    await piping;
  }
  pending += decoder.end();
  if (pending.trim() !== '') yield { line: ++line, value: parse(pending) };
}
