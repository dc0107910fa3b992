// A JSON answer serialized once and sent many times (a prepared list page). The router sends its bytes as they are
// (no encoding per request) and checks them against the declared response schema once per route and status: the same
// text always gets the same verdict.
import type { FieldError } from '../problems.js';
import { toJson } from './validation.js';
import { keepReusable, type ReuseKind } from './reusableBodies.js';

interface Check {
  checker: object;
  status: number;
  problems: FieldError[];
}

export class PreparedJson {
  private check: Check | null = null;

  private constructor(
    /** The UTF-8 JSON text, encoded once. */
    readonly bytes: Buffer,
    /** A page's top-level nextCursor as sent (for its Link header without parsing the bytes), else null. */
    readonly nextCursor: string | null = null,
  ) {}

  /** `kind` 'static' for a text kept for the process's life (the contract): compressed harder, once. */
  static of(value: unknown, kind: ReuseKind = 'page'): PreparedJson {
    const next = (value as { nextCursor?: unknown } | null)?.nextCursor;
    // Sent again while the page is kept: its ETag and compressed forms are made once.
    return new PreparedJson(keepReusable(Buffer.from(toJson(value), 'utf8'), kind), typeof next === 'string' ? next : null);
  }

  get text(): string {
    return this.bytes.toString('utf8');
  }

  /** The declared-schema problems of this text for a route's checker and status, computed the first time only. */
  problems(checker: object, status: number, compute: (text: string) => FieldError[]): FieldError[] {
    const check = this.check;
    if (check && check.checker === checker && check.status === status) return check.problems;
    const problems = compute(this.text);
    this.check = { checker, status, problems };
    return problems;
  }

  /** Whoever serializes it generically (an idempotent replay) gets the value, not this wrapper. */
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}
