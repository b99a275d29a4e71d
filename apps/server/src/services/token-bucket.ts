/**
 * A token bucket per key: up to `capacity` calls at once, then `perSecond` a second as the
 * bucket fills again. Lets a burst through (a page of many cards asking at once) while holding
 * a steady loop to the refill rate, where a fixed window lets a loop take its whole window's
 * allowance in one burst. In process, like the other limits (decision 0002).
 */
export class TokenBucket {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
    private readonly maxKeys = 100_000,
  ) {}

  /** Takes one token of `key`'s bucket and answers 0, or the whole seconds until one is there. */
  take(key: string, now: number): number {
    const b = this.buckets.get(key);
    // A clock stepped back fills nothing, and takes nothing either.
    const tokens = b
      ? Math.min(this.capacity, b.tokens + (Math.max(0, now - b.at) / 1000) * this.perSecond)
      : this.capacity;
    // Written again at the end: the Map's order is then the order keys were last used in.
    if (b) this.buckets.delete(key);
    else if (this.buckets.size >= this.maxKeys) this.evict(now);
    const at = b ? Math.max(now, b.at) : now;
    if (tokens >= 1) {
      this.buckets.set(key, { tokens: tokens - 1, at });
      return 0;
    }
    this.buckets.set(key, { tokens, at });
    return Math.max(1, Math.ceil((1 - tokens) / this.perSecond));
  }

  /** Drops the buckets that have filled up again (as good as none); then the least used lately. */
  private evict(now: number): void {
    for (const [k, b] of this.buckets)
      if (b.tokens + ((now - b.at) / 1000) * this.perSecond >= this.capacity)
        this.buckets.delete(k);
    for (const k of this.buckets.keys()) {
      if (this.buckets.size < this.maxKeys) break;
      this.buckets.delete(k);
    }
  }
}
