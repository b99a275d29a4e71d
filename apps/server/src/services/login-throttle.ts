/**
 * Counts failed logins per account (not per IP, which an attacker can rotate): after `limit`
 * failures within `windowMs` the account refuses logins, even with the right password, until
 * the window ends. Checked before any password hashing, so it also caps hashing work.
 * In-process: with several server instances each keeps its own count (see docs/decisions).
 */
export class LoginThrottle {
  private readonly failures = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys = 100_000,
  ) {}

  /** Seconds until the account may try again, or 0 when it may try now. */
  retryAfterSeconds(key: string, now: number): number {
    const entry = this.failures.get(key);
    if (!entry) return 0;
    if (entry.resetAt <= now) {
      this.failures.delete(key);
      return 0;
    }
    return entry.count >= this.limit ? Math.ceil((entry.resetAt - now) / 1000) : 0;
  }

  recordFailure(key: string, now: number): void {
    const entry = this.failures.get(key);
    if (entry && entry.resetAt > now) {
      entry.count++;
      return;
    }
    if (this.failures.size >= this.maxKeys) this.evictExpired(now);
    this.failures.set(key, { count: 1, resetAt: now + this.windowMs });
  }

  reset(key: string): void {
    this.failures.delete(key);
  }

  private evictExpired(now: number) {
    for (const [k, v] of this.failures) if (v.resetAt <= now) this.failures.delete(k);
    // Still full: drop the oldest entries rather than grow without bound.
    for (const k of this.failures.keys()) {
      if (this.failures.size < this.maxKeys) break;
      this.failures.delete(k);
    }
  }
}
