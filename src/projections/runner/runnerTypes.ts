// The runner's public shapes, owned here so that the runner and its parts (slots, rebuild, progress)
// import them from one place instead of from each other.
import type { Projection } from './projection.js';
import type { Collection, ReadDoc } from '../../stores/readStore.js';

export interface RebuildProgress {
  projection: string;
  done: number;
  total: number;
  ratePerSecond: number;
  /** Estimated seconds left, null until a rate is known. */
  etaSeconds: number | null;
  elapsedMs: number;
}

export interface ProjectionStatus {
  name: string;
  version: number;
  state: 'stopped' | 'catching-up' | 'live' | 'rebuilding' | 'failed';
  /** Global position of the last event applied (decimal string; '0' when none). */
  checkpoint: string;
  /** Global position of the last event in the log (decimal string). */
  head: string;
  /** head - checkpoint, in positions (0 when caught up). */
  lag: number;
  error?: string;
  rebuild?: RebuildProgress;
}

export interface ProjectionRunner {
  /** Register before start(). */
  register(projection: Projection): void;
  /** Ensure collections and indexes, resume every projection from its checkpoint, catch up, then go live. Resolves once caught up with the head as it was at the call. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** The collection that currently serves reads for a projection's logical collection. */
  collection<T extends ReadDoc = ReadDoc>(projection: string, logical: string): Collection<T>;
  /** Wait (bounded) until the projections (all by default) have applied `position`. False on timeout. */
  waitFor(position: bigint, options?: { timeoutMs?: number; projections?: string[] }): Promise<boolean>;
  status(): Promise<ProjectionStatus[]>;
  /** Replay the whole log into a fresh collection set, then switch reads to it. */
  rebuild(name: string, onProgress?: (progress: RebuildProgress) => void): Promise<void>;
}
