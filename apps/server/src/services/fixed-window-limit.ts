import { TooManyRequestsError } from './errors.js';

/**
 * A fixed-window count per key: up to `limit` hits per `windowMs`, then refusals until the
 * window ends. Serves the per-account login lock (count failures, check before hashing) and
 * the per-user Device ID look-up budget (count every call).
 * In-process: with several server instances each keeps its own counts (docs/decisions/0002).
 */
export class FixedWindowLimit {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly refusal = 'Too many requests. Please try again later.',
    private readonly maxKeys = 100_000,
  ) {}

  /** Seconds until `key` may go on, or 0 when it may go on now. */
  retryAfterSeconds(key: string, now: number): number {
    const entry = this.windows.get(key);
    if (!entry) return 0;
    if (entry.resetAt <= now) {
      this.windows.delete(key);
      return 0;
    }
    return entry.count >= this.limit ? Math.ceil((entry.resetAt - now) / 1000) : 0;
  }

  /**
   * Counts one hit in the current window (opening one if none is open), or `weight` of them
   * (the readings or bytes of one upload).
   */
  hit(key: string, now: number, weight = 1): void {
    const entry = this.windows.get(key);
    if (entry && entry.resetAt > now) {
      entry.count += weight;
      return;
    }
    if (this.windows.size >= this.maxKeys) this.evict(now);
    this.windows.set(key, { count: weight, resetAt: now + this.windowMs });
  }

  /** Counts one call, or refuses it with 429 and Retry-After when the key is over its limit. */
  take(key: string, now: number): void {
    const wait = this.tryTake(key, now);
    if (wait > 0) throw new TooManyRequestsError(wait, this.refusal);
  }

  /** Takes back one hit of the open window: the call it counted did nothing after all. */
  giveBack(key: string, now: number): void {
    const entry = this.windows.get(key);
    if (entry && entry.resetAt > now && entry.count > 0) entry.count--;
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  /**
   * Counts the call and says whether it may go on, in one synchronous step: of many
   * concurrent calls exactly `limit` get through, however slow the work that follows is.
   */
  tryTake(key: string, now: number, weight = 1): number {
    const wait = this.retryAfterSeconds(key, now);
    if (wait === 0) this.hit(key, now, weight);
    return wait;
  }

  private evict(now: number) {
    for (const [k, v] of this.windows) if (v.resetAt <= now) this.windows.delete(k);
    // Still full: drop the oldest entries that are not over their limit. A key that is over
    // it (a locked account) is never dropped, so spraying new keys cannot lift a lock; locks
    // end with their window, and reaching one costs `limit` calls, so they stay few.
    for (const [k, v] of this.windows) {
      if (this.windows.size < this.maxKeys) break;
      if (v.count < this.limit) this.windows.delete(k);
    }
  }
}
