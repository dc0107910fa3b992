// Checks an export's events part line by line before anything is written: every chain hash recomputed from the one
// before it (src/stores/chain's hash), every signed checkpoint against the header's public key and the event it names.
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { Readable } from 'node:stream';
import { chainHash } from '../stores/chain/hashChain.js';
import type { RecordedEvent } from '../stores/eventStore.js';
import { checkpointMessage } from '../integrity/chainCheckpoints.js';
import {
  EXPORT_FORMAT,
  ExportRejectedError,
  readExportLines,
  type CheckpointLine,
  type EventLine,
  type ExportHeader,
  type ExportLine,
} from './exportFormat.js';

export interface VerifiedExport {
  header: ExportHeader;
  events: number;
  lastHash: string;
  /** Signed checkpoints checked against the chain; those signed with another key than the header's are only counted. */
  checkpoints: { verified: number; otherKey: number; beforeExport: number };
  companyEvents: number;
}

/** Follows the lines of an events part; throws ExportRejectedError at the first line that is not what it should be. */
export class ExportChecker {
  private header: ExportHeader | null = null;
  private key: KeyObject | null = null;
  private prev = '';
  private lastPosition = 0n;
  private chained = false;
  private events = 0;
  private companyEvents = 0;
  private ended = false;
  /** Checkpoints (listed before the events) waiting for the event at their position. */
  private pending = new Map<string, CheckpointLine>();
  private counts = { verified: 0, otherKey: 0, beforeExport: 0 };

  accept(line: number, value: ExportLine): void {
    if (this.ended) throw new ExportRejectedError(`line ${line}: nothing may follow the end line`, line);
    if (!this.header) return this.acceptHeader(line, value);
    switch (value.kind) {
      case 'checkpoint':
        return this.acceptCheckpoint(line, value);
      case 'event':
        return this.acceptEvent(line, value);
      case 'company':
        this.companyEvents++;
        return;
      case 'end':
        return this.acceptEnd(line, value);
      default:
        throw new ExportRejectedError(
          `line ${line}: unexpected ${String((value as { kind?: unknown }).kind)} line in the events part`,
          line,
        );
    }
  }

  private acceptHeader(line: number, value: ExportLine): void {
    if (value.kind !== 'header' || value.format !== EXPORT_FORMAT || value.part !== 'events')
      throw new ExportRejectedError(`line ${line}: not the header of a ${EXPORT_FORMAT} events part`, line);
    try {
      this.key = createPublicKey(value.publicKey.publicKeyPem);
    } catch {
      throw new ExportRejectedError(`line ${line}: the header's public key cannot be read`, line);
    }
    this.header = value;
    this.prev = value.previousHash;
    this.lastPosition = BigInt(value.after);
  }

  private acceptCheckpoint(line: number, c: CheckpointLine): void {
    const header = this.header!;
    if (this.events > 0) throw new ExportRejectedError(`line ${line}: checkpoints come before the events`, line);
    if (c.tenant !== header.tenant) throw new ExportRejectedError(`line ${line}: checkpoint ${c.sequence} is of another company`, line);
    if (c.keyId !== header.publicKey.keyId) {
      this.counts.otherKey++;
      return;
    }
    const { signature, algorithm: _algorithm, kind: _kind, ...signed } = c;
    if (!verify(null, Buffer.from(checkpointMessage(signed)), this.key!, Buffer.from(signature, 'base64')))
      throw new ExportRejectedError(`line ${line}: the signature of checkpoint ${c.sequence} does not verify`, line);
    if (BigInt(c.position) <= BigInt(header.after)) this.counts.beforeExport++;
    else this.pending.set(c.position, c);
  }

  private acceptEvent(line: number, e: EventLine): void {
    const header = this.header!;
    const position = BigInt(e.position);
    const broken = (why: string) =>
      new ExportRejectedError(
        `line ${line}: event ${e.id} (${e.stream} revision ${e.revision}, position ${e.position}) ${why}`,
        line,
        e.id,
        e.position,
      );
    if (position <= this.lastPosition || position > BigInt(header.through)) throw broken('is out of order or outside the export');
    if (!e.stream.startsWith(`${header.tenant}.`)) throw broken('is not of the exported company');
    this.lastPosition = position;
    this.events++;
    if (e.hash === null) {
      if (this.chained) throw broken('has no chain hash after chained events');
      return;
    }
    const recordable = { id: e.id, streamName: e.stream, type: e.type, data: e.data, metadata: e.metadata } as unknown as RecordedEvent;
    const expected = chainHash(this.prev, recordable);
    if (expected !== e.hash) throw broken(`does not match its chain hash: expected ${expected}, found ${e.hash}`);
    this.chained = true;
    this.prev = expected;
    const checkpoint = this.pending.get(e.position);
    if (checkpoint) {
      if (checkpoint.hash !== expected) throw broken(`is not the head checkpoint ${checkpoint.sequence} signed`);
      this.pending.delete(e.position);
      this.counts.verified++;
    }
  }

  private acceptEnd(line: number, end: ExportLine & { kind: 'end' }): void {
    if (end.events !== this.events || end.lastHash !== this.prev)
      throw new ExportRejectedError(`line ${line}: the end line does not match the events read (${this.events}, head ${this.prev})`, line);
    const [missing] = this.pending.values();
    if (missing)
      throw new ExportRejectedError(`checkpoint ${missing.sequence} names position ${missing.position}, which the export lacks`, line);
    this.ended = true;
  }

  /** The events the header announces (0 before the header). */
  get announced(): number {
    return this.header?.events ?? 0;
  }

  result(): VerifiedExport {
    if (!this.header) throw new ExportRejectedError('the export is empty', 0);
    if (!this.ended) throw new ExportRejectedError('the export was cut short (no end line)', 0);
    return {
      header: this.header,
      events: this.events,
      lastHash: this.prev,
      checkpoints: { ...this.counts },
      companyEvents: this.companyEvents,
    };
  }
}

/** Reads the whole part once, holding one line at a time. */
export async function verifyExport(
  source: string | Readable,
  onLine?: (events: number, announced: number) => void,
): Promise<VerifiedExport> {
  const checker = new ExportChecker();
  let n = 0;
  for await (const { line, value } of readExportLines(source)) {
    checker.accept(line, value);
    if (value.kind === 'event' && ++n % 500 === 0) onLine?.(n, checker.announced);
  }
  return checker.result();
}
