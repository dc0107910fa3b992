// The main thread's picture of the projections the projector thread runs (PROJECTIONS_THREAD=auto|worker): where each serves
// reads (the main thread's own handles on the collections the thread names), what it has applied, the change stamps the
// thread's reported writes move, and the read-your-writes waits its reports wake.
import type { Collection, ReadDoc, ReadStore } from '../../stores/readStore.js';
import type { Projection } from './projection.js';
import { PositionWaiters } from './positionWaiters.js';
import { slotCollection } from './switchingCollection.js';
import { ParkedScopes } from './parkedScopes.js';
import { CollectionStamps, StampClock } from './changeStamps.js';
import type { ProjectionStatus, SlotView, WaitOptions } from './runnerTypes.js';

interface MainSlot {
  projection: Projection;
  checkpoint: bigint;
  parked: ParkedScopes;
  refilling: boolean;
  /** Physical names and the main thread's handles on them, by logical name. */
  names: Record<string, string>;
  collections: Map<string, Collection>;
}

export class ThreadedSlots {
  readonly waiters = new PositionWaiters();
  /** Set when a refill is asked of the thread, until its first report of refilling (reports before it are stale). */
  refillAsked = false;
  private readonly slots = new Map<string, MainSlot>();
  private readonly handles = new Map<string, Collection>();
  private readonly stamps = new Map<string, CollectionStamps>();
  private readonly clock = new StampClock();

  constructor(private readonly reads: ReadStore) {}

  get size(): number {
    return this.slots.size;
  }

  register(projection: Projection): void {
    if (this.slots.has(projection.name)) throw new Error(`projection '${projection.name}' registered twice`);
    this.slots.set(projection.name, {
      projection,
      checkpoint: 0n,
      parked: new ParkedScopes(),
      refilling: false,
      names: {},
      collections: new Map(),
    });
  }

  /** (name, version) of each registered projection, in order: what the thread must run. */
  registered(): [string, number][] {
    return [...this.slots.values()].map(({ projection }) => [projection.name, projection.version]);
  }

  slotOf(name: string): MainSlot {
    const slot = this.slots.get(name);
    if (!slot) throw new Error(`unknown projection '${name}'`);
    return slot;
  }

  /** The thread's report of its projections (only those that changed), applied in the order sent. */
  async apply(views: SlotView[]): Promise<void> {
    if (this.refillAsked && views.some((view) => view.refilling)) this.refillAsked = false; // in order: every later one is new
    const stale = this.refillAsked;
    for (const view of views) {
      const slot = this.slots.get(view.name);
      if (!slot) continue;
      if (Object.entries(view.collections).some(([logical, name]) => slot.names[logical] !== name)) {
        const opened = new Map<string, Collection>();
        for (const [logical, name] of Object.entries(view.collections)) {
          opened.set(logical, await this.reads.collection(name));
          if (!this.stamps.has(name)) this.stamps.set(name, new CollectionStamps(this.clock));
        }
        slot.collections = opened;
        slot.names = view.collections;
      }
      if (stale) continue;
      slot.checkpoint = BigInt(view.checkpoint);
      slot.parked = ParkedScopes.from(view.parked);
      slot.refilling = view.refilling;
    }
    this.waiters.notify();
  }

  /** Writes the thread reported (collection, tenant or null for all): applied before the views of the same report. */
  touch(writes: [string, string | null][]): void {
    for (const [name, tenantId] of writes) {
      const stamps = this.stamps.get(name);
      if (tenantId === null) stamps?.touchAll();
      else stamps?.touch(tenantId);
    }
  }

  /** The thread died: what it wrote after its last report is not in the stamps, so nothing prepared before may serve. */
  touchAll(): void {
    for (const stamps of this.stamps.values()) stamps.touchAll();
  }

  /** A damaged file was replaced: every read answers 503 until the thread reports its projection refilled. */
  startRefill(): void {
    this.touchAll(); // no page prepared from the damaged file is served again
    for (const slot of this.slots.values()) {
      slot.refilling = true;
      slot.checkpoint = 0n;
    }
    this.waiters.notify();
  }

  collection<T extends ReadDoc = ReadDoc>(projection: string, logical: string): Collection<T> {
    return slotCollection<T>(this.handles, (name) => this.slotOf(name), projection, logical);
  }

  waitFor(position: bigint, options: WaitOptions, stopped: () => boolean): Promise<boolean> {
    const { tenant } = options;
    const targets = (options.projections ?? [...this.slots.keys()])
      .map((name) => this.slotOf(name))
      .map((slot) => ({
        reached: (p: bigint) => slot.checkpoint >= p,
        stuck: stopped,
        refuses: (p: bigint) => tenant !== undefined && slot.parked.blocksTenant(tenant, p),
      }));
    return this.waiters.wait(position, targets, options.timeoutMs ?? 5000);
  }

  changeStamp(projection: string, logical: string, tenantId: string): number | null {
    const slot = this.slotOf(projection);
    const name = slot.names[logical];
    return name === undefined || slot.refilling ? null : (this.stamps.get(name)?.of(tenantId) ?? null);
  }

  /** The status without the thread (it is starting again, or stopped): the last reports, each projection failed. */
  statusWithoutThread(head: bigint, stopped: boolean): ProjectionStatus[] {
    const error = stopped ? undefined : 'the projector thread is starting again after a failure';
    return [...this.slots.values()].map((slot): ProjectionStatus => ({
      name: slot.projection.name,
      version: slot.projection.version,
      state: stopped ? 'stopped' : 'failed',
      checkpoint: slot.checkpoint.toString(),
      head: head.toString(),
      lag: head > slot.checkpoint ? Number(head - slot.checkpoint) : 0,
      ...(error ? { error } : {}),
      parked: slot.parked.list(),
    }));
  }
}
