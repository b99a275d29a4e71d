import { TooManyRequestsError } from './errors.js';

/**
 * A fixed-window count per key (a user id): `limit` calls per `windowMs`, then 429 with
 * Retry-After until the window ends. Several routes can share one instance, and so one
 * budget. In-process: with several server instances each keeps its own count.
 */
export class PerUserLimit {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly message: string,
    private readonly maxKeys = 100_000,
  ) {}

  /** Counts one call; throws TooManyRequestsError when the key is over its limit. */
  take(key: string, now: number): void {
    let entry = this.windows.get(key);
    if (!entry || entry.resetAt <= now) {
      if (!entry && this.windows.size >= this.maxKeys) this.evict(now);
      entry = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(key, entry);
    }
    if (entry.count >= this.limit)
      throw new TooManyRequestsError((entry.resetAt - now) / 1000, this.message);
    entry.count++;
  }

  private evict(now: number) {
    for (const [k, v] of this.windows) if (v.resetAt <= now) this.windows.delete(k);
    for (const k of this.windows.keys()) {
      if (this.windows.size < this.maxKeys) break;
      this.windows.delete(k);
    }
  }
}
