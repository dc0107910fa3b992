// How many renders one company may have in the pool at once, and how many may wait behind them (issue 20 item 5):
// one company asking for many sheets cannot take every worker, nor queue without bound.
import { ProblemError, tooManyRequests } from '../problems.js';
import { observeRateLimit, type RateLimitLog, type RateLimitPolicy } from '../rateLimits.js';

export interface GateLimits {
  /** Jobs of one company in the pool (running or waiting for a worker) at once. */
  perCompany: number;
  /** Jobs of one company waiting for one of those places; one more answers 429. */
  queuedPerCompany: number;
  /** Jobs waiting across every company; one more answers 503. */
  queuedTotal: number;
  /** Retry-After of either answer. */
  retryAfterSeconds: number;
}

interface CompanyLine {
  admitted: number;
  waiting: (() => void)[];
}

export class CompanyGate {
  private readonly lines = new Map<string, CompanyLine>();
  private waitingTotal = 0;
  /** The most renders any one company had admitted at once (what the per-company limit bounds). */
  private peakPerCompany = 0;

  /** A company's renders running or waiting, as the RateLimit headers name them. */
  private readonly policy: RateLimitPolicy;

  constructor(private readonly limits: GateLimits) {
    this.policy = { name: 'renders', quota: limits.perCompany + limits.queuedPerCompany, unit: 'concurrent-requests' };
  }

  /** Runs `work` once the company has a place; refuses at once when its queue (or everyone's) is full. */
  async run<T>(company: string, work: () => Promise<T>, log?: RateLimitLog): Promise<T> {
    const line = this.lines.get(company) ?? { admitted: 0, waiting: [] };
    this.lines.set(company, line);
    const full = line.admitted >= this.limits.perCompany && line.waiting.length >= this.limits.queuedPerCompany;
    const inUse = line.admitted + line.waiting.length + (full ? 0 : 1);
    observeRateLimit(log, this.policy, this.policy.quota - inUse, full ? this.limits.retryAfterSeconds : null);
    // A waiter is woken holding the place its predecessor left: no newcomer can slip in between.
    if (line.admitted >= this.limits.perCompany) await this.wait(line);
    else line.admitted++;
    this.peakPerCompany = Math.max(this.peakPerCompany, line.admitted);
    try {
      return await work();
    } finally {
      this.release(company, line);
    }
  }

  stats(): { companies: number; waiting: number; peakPerCompany: number } {
    return { companies: this.lines.size, waiting: this.waitingTotal, peakPerCompany: this.peakPerCompany };
  }

  private release(company: string, line: CompanyLine): void {
    const next = line.waiting.shift();
    if (next) {
      this.waitingTotal--;
      next();
      return;
    }
    line.admitted--;
    if (line.admitted === 0) this.lines.delete(company);
  }

  private wait(line: CompanyLine): Promise<void> {
    const { queuedPerCompany, queuedTotal, retryAfterSeconds } = this.limits;
    if (line.waiting.length >= queuedPerCompany) {
      throw tooManyRequests(retryAfterSeconds, `At most ${queuedPerCompany} renders of the company wait at once; retry later`);
    }
    if (this.waitingTotal >= queuedTotal) {
      throw new ProblemError(503, 'render-busy', 'Service Unavailable', 'Too many renders are waiting; retry later', {
        'Retry-After': String(retryAfterSeconds),
      });
    }
    this.waitingTotal++;
    return new Promise<void>((resolve) => line.waiting.push(resolve));
  }
}
