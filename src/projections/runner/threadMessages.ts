// The messages between the main thread and the projector thread (PROJECTIONS_THREAD=auto|worker): what starts the
// thread, the durable positions it may project up to, requests it answers, and the advances and writes it reports.
import type { LogLevel } from '../../logger.js';
import type { ProjectionStatus, RebuildProgress, SlotView } from './runnerTypes.js';

export interface ProjectorThreadData {
  dataDir: string;
  readStoreCacheMiB?: number;
  /** The event store's identity and the position durable at the spawn (decimal string). */
  storeId: string;
  durable: string;
  /** The projector lease holder name of this thread (the main thread releases it if the thread dies). */
  holder: string;
  /** The read store's checkpoint fence (checkpointFence.ts), shared with the main thread's glance. */
  fence: Int32Array;
  /** The projections the main thread registered (name, version), in order. */
  projections: [name: string, version: number][];
}

export type ToProjectorThread =
  | { type: 'durable'; position: string }
  | { type: 'status'; id: number }
  | { type: 'rebuild'; id: number; name: string }
  | { type: 'refill'; id: number; first: string[] }
  /** Project up to `head` (bounded), flush, close: the service stops. */
  | { type: 'stop'; head: string };

export type FromProjectorThread =
  | { type: 'started'; views: SlotView[] }
  /** Writes first, then views: the main thread touches its stamps before it wakes a read-your-writes wait. */
  | { type: 'changed'; touched: [collection: string, tenantId: string | null][]; views: SlotView[] }
  | { type: 'reply'; id: number; status?: ProjectionStatus[]; views?: SlotView[]; error?: string }
  | { type: 'progress'; id: number; progress: RebuildProgress }
  | { type: 'log'; level: Exclude<LogLevel, 'silent'>; msg: string; fields?: Record<string, unknown> }
  /** `unusable`: the event log is corrupt (EventStoreUnusableError): the service stops with that clear message. */
  | { type: 'failed'; error: string; unusable?: boolean }
  /** SQLite said the read-model file is damaged: the main thread's store sets it aside and asks for the refill. */
  | { type: 'damage'; reason: string }
  | { type: 'stopped' };
