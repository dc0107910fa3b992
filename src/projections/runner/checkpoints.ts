// Projection checkpoints: one document per projection under the platform tenant, recording the code
// version it was built with, the last position applied (and the event store it belongs to), which versioned
// collections serve reads, and the scopes parked by poison events. Written unconditionally: only the lease holder
// writes them, and a stale holder's late write can only move one back (a harmless, idempotent replay).
import { PLATFORM_DOCS, type Collection, type ReadDoc } from '../../stores/readStore.js';
import type { ParkedEntry } from './parkedScopes.js';

export const CHECKPOINTS_COLLECTION = 'projection_checkpoints';

/**
 * What the runner stamps on every document besides `_position` (1: `_changedAt`). A checkpoint written before a stamp
 * existed serves documents without it: the projection is rebuilt once, like a version bump, so no list filter skips them.
 */
export const DOCUMENT_STAMPS = 1;

export interface CheckpointDoc extends ReadDoc {
  version: number;
  /** Global position of the last event applied (decimal string). */
  position: string;
  /** Suffix of the collections that serve reads, e.g. `_v2` or `_v2_r3` after a rebuild. */
  suffix: string;
  /** Full names of those collections, so a later version can drop them even if its logical names differ. */
  collections: string[];
  /** Identity of the event store the position belongs to: another store's position means nothing here (rebuild). */
  storeId?: string;
  /** Scopes stopped at a poison event, as of this position. */
  parked?: ParkedEntry[];
  /** DOCUMENT_STAMPS of the runner that wrote the collections (absent: before `_changedAt`). */
  stamps?: number;
}

export interface CheckpointState {
  version: number;
  position: bigint;
  suffix: string;
  collections: string[];
  storeId: string;
  parked: ParkedEntry[];
}

export function versionSuffix(version: number): string {
  return `_v${version}`;
}

/** `_v<version>_r<n>`, n one more than the current rebuild number of that version. */
export function nextRebuildSuffix(version: number, current: string): string {
  const match = /^_v(\d+)(?:_r(\d+))?$/.exec(current);
  const n = match && Number(match[1]) === version ? Number(match[2] ?? 0) + 1 : 1;
  return `${versionSuffix(version)}_r${n}`;
}

export async function readCheckpoint(checkpoints: Collection<CheckpointDoc>, projection: string): Promise<CheckpointDoc | null> {
  return checkpoints.get(PLATFORM_DOCS, projection);
}

export async function writeCheckpoint(checkpoints: Collection<CheckpointDoc>, projection: string, state: CheckpointState): Promise<void> {
  await checkpoints.replace(checkpointDocOf(projection, state));
}

/** The checkpoint document of a projection in a state. */
export function checkpointDocOf(projection: string, state: CheckpointState): CheckpointDoc {
  return {
    tenantId: PLATFORM_DOCS,
    id: projection,
    version: state.version,
    position: state.position.toString(),
    suffix: state.suffix,
    collections: state.collections,
    storeId: state.storeId,
    parked: state.parked,
    stamps: DOCUMENT_STAMPS,
  };
}
