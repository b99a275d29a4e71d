/**
 * At most `perMinute` log lines a minute for one kind of event: a flood (wrong keys, bad
 * messages) is summarised, not written line by line. `take()` says whether to log this one;
 * `skipped` is how many were left out since the last line logged.
 */
export class LogSampler {
  private minute = 0;
  private used = 0;
  private pending = 0;
  /** Left out before the line now being logged. */
  skipped = 0;

  constructor(private readonly perMinute: number) {}

  take(now = Date.now()): boolean {
    const minute = Math.floor(now / 60_000);
    if (minute !== this.minute) {
      this.minute = minute;
      this.used = 0;
    }
    if (this.used++ < this.perMinute) {
      this.skipped = this.pending;
      this.pending = 0;
      return true;
    }
    this.pending++;
    return false;
  }
}

/**
 * One log line a minute per key (a collar, an account): `take` answers how many of that
 * key's events were left out since its last line, or null when this one is to be left out.
 * Keys of minutes gone are let go once more than 10,000 are held.
 */
export class OncePerMinute {
  private readonly logged = new Map<string, { minute: number; left: number }>();

  take(key: string, now: number): number | null {
    const minute = Math.floor(now / 60_000);
    const entry = this.logged.get(key);
    if (entry && entry.minute === minute) {
      entry.left++;
      return null;
    }
    if (this.logged.size > 10_000)
      for (const [k, v] of this.logged) if (v.minute < minute) this.logged.delete(k);
    this.logged.set(key, { minute, left: 0 });
    return entry?.left ?? 0;
  }
}
