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
