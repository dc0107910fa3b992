// One projector at a time on a shared read store: the instance holding the 'projector' lease projects, the others
// stand by (they serve reads of its documents and follow its checkpoints). The holder renews the lease every
// `renewMs`; an instance that cannot renew steps down before its lease could have expired, and a standby takes the
// lease once it has expired. With the embedded store (one process) the first runner always holds it.
import type { Logger } from '../../logger.js';
import type { ReadStore } from '../../stores/readStore.js';
import { acquireLease, releaseLease } from '../../stores/leases.js';
import { errorText } from './projectionFailures.js';

export const PROJECTOR_LEASE = 'projector';

export interface LeasePolicy {
  ttlMs: number;
  renewMs: number;
}

export class ProjectorLease {
  held = false;
  /** Why the last attempt got no answer from the read store (a full disk, a lost connection); null once one did. */
  unreachable: unknown = null;
  /** Until when the last successful renewal holds it (this process's clock). */
  private validUntil = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly reads: ReadStore,
    readonly holder: string,
    private readonly now: () => Date,
    private readonly policy: LeasePolicy,
    private readonly logger: Logger,
  ) {}

  /** One attempt to take or renew the lease; answers whether this instance holds it now. */
  async attempt(): Promise<boolean> {
    const nowMs = this.now().getTime();
    try {
      const held = await acquireLease(this.reads, { name: PROJECTOR_LEASE, holder: this.holder, nowMs, ttlMs: this.policy.ttlMs });
      if (held) this.validUntil = nowMs + this.policy.ttlMs;
      this.held = held;
      this.unreachable = null;
    } catch (error) {
      this.unreachable = error;
      // Unknown outcome: keep it while it surely has not expired (one renewal period of margin), then step down.
      if (this.held && nowMs >= this.validUntil - this.policy.renewMs) this.held = false;
      this.logger.warn('projector lease: the read store did not answer', { holder: this.holder, held: this.held, error });
    }
    return this.held;
  }

  /** Why a standby instance is not following anyone: it stood down because the read store did not answer. */
  standingDownBecause(): string | null {
    if (this.held || this.unreachable === null) return null;
    const cause = errorText(this.unreachable);
    return `the read store did not answer (${cause}): nothing is projected until it does; retried every ${this.policy.renewMs / 1000} s`;
  }

  /** Renews (or tries to take) the lease every `renewMs`; `changed` runs when this instance gains or loses it. */
  keep(changed: (held: boolean) => Promise<void>): void {
    const tick = async (): Promise<void> => {
      this.timer = null;
      if (this.stopped) return;
      const before = this.held;
      const held = await this.attempt();
      if (held !== before && !this.stopped) {
        await changed(held).catch((error: unknown) => this.logger.error('projector lease change failed', { held, error }));
      }
      if (!this.stopped) this.timer = setTimeout(() => void tick(), this.policy.renewMs);
    };
    this.timer = setTimeout(() => void tick(), this.policy.renewMs);
  }

  /** Stops renewing and gives the lease up, so a standby instance takes over without waiting for it to expire. */
  async release(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.giveUp();
  }

  /** Gives the lease up but keeps trying to take it again at every renewal period. */
  async giveUp(): Promise<void> {
    if (!this.held) return;
    this.held = false;
    await releaseLease(this.reads, PROJECTOR_LEASE, this.holder).catch((error: unknown) =>
      this.logger.warn('projector lease: release failed; it expires on its own', { holder: this.holder, error }),
    );
  }
}
