import type { Socket } from 'node:net';
import { TooManyRequestsError } from './errors.js';

/** Waits `ms` on a timer (no CPU meanwhile), or less once `signal` aborts. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export const timerSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref();
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * A 429 of a budget, the ingest budgets (decision 0039) or an account's chart reads (decision
 * 0046), with whether its collar or account was already refused in this stretch over budget:
 * the first refusal is answered at once, a repeated one after a delay (RefusalDelay).
 */
export class BudgetRefusal extends TooManyRequestsError {
  constructor(
    retryAfterSeconds: number,
    message: string,
    readonly repeated: boolean,
  ) {
    super(retryAfterSeconds, message);
  }
}

/**
 * When each collar or account refused lately stays refused: a refusal before then is a
 * repeat (held by RefusalDelay), the first one after it starts a new stretch. Ended
 * stretches are let go once more than 10,000 are held.
 */
export class RefusalStretches {
  private readonly until = new Map<string, number>();

  /** Whether refusing `key` now repeats a refusal; if not, its stretch lasts `waitSeconds`. */
  repeated(key: string, now: number, waitSeconds: number): boolean {
    if ((this.until.get(key) ?? 0) > now) return true;
    if (this.until.size > 10_000)
      for (const [k, end] of this.until) if (end <= now) this.until.delete(k);
    this.until.set(key, now + Math.max(1, Math.ceil(waitSeconds)) * 1000);
    return false;
  }
}

/** A repeated refusal is answered this long after it is decided (never past its Retry-After). */
export const REFUSAL_DELAY_MS = 1000;
/**
 * Repeated refusals held at once, server-wide. Each holds its connection and what Node had
 * read of its body before pausing it (up to about 128 kB, never parsed): at most about
 * 32 MiB in all. Past it, a repeated refusal is answered at once, and its connection closed.
 */
export const REFUSAL_DELAY_MAX_PENDING = 256;

/**
 * Makes a flood's refusals cheap for the server by making them slow for its client: a
 * collar's or an account's repeated 429 is answered after REFUSAL_DELAY_MS, on a timer, and
 * with `Connection: close`, so its unread body is never read nor drained (bench/README,
 * "Abuse"). A closed-loop client then sends about one upload a second per connection instead
 * of as many as the server can refuse. A collar that honours Retry-After is refused once, at
 * once, and sees no difference.
 */
export type RefusalDelayOptions = Partial<{ delayMs: number; maxPending: number; sleep: Sleep }>;

export class RefusalDelay {
  private held = 0;
  private readonly o: Required<RefusalDelayOptions>;

  constructor(o: RefusalDelayOptions = {}) {
    this.o = {
      delayMs: o.delayMs ?? REFUSAL_DELAY_MS,
      maxPending: o.maxPending ?? REFUSAL_DELAY_MAX_PENDING,
      sleep: o.sleep ?? timerSleep,
    };
  }

  /** Repeated refusals being held now. */
  get pending(): number {
    return this.held;
  }

  /**
   * Before `err` is answered: a repeated budget refusal waits its delay (unless the bound of
   * pending ones is reached, or its client leaves first) and closes the connection after its
   * answer; anything else is answered as it is. Answers whether the connection is to close.
   */
  async hold(err: unknown, socket: Socket | null): Promise<boolean> {
    if (!(err instanceof BudgetRefusal) || !err.repeated) return false;
    if (this.held >= this.o.maxPending) return true;
    const retryAfterMs = Number(err.headers['retry-after']) * 1000;
    const ms = Math.min(this.o.delayMs, retryAfterMs);
    const left = new AbortController();
    const abort = () => left.abort();
    socket?.once('close', abort);
    this.held++;
    try {
      await this.o.sleep(ms, left.signal);
    } finally {
      this.held--;
      socket?.off('close', abort);
    }
    return true;
  }
}
