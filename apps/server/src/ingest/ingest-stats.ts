/**
 * Readings are counted, not logged one by one (the hot path): what was stored and in how many
 * commits, logged as one `ingest.stats` line a minute.
 */
export class IngestStats {
  /** Readings stored and commits made since start. */
  stored = 0;
  commits = 0;
  private timer: NodeJS.Timeout | null = null;

  /** One commit that inserted `readings`. */
  committed(readings: number): void {
    this.commits++;
    this.stored += readings;
  }

  /** Logs one line a minute with what was stored, instead of a line per reading. */
  start(log: { info: (o: object, msg: string) => void }): void {
    let readings = this.stored;
    let batches = this.commits;
    this.timer ??= setInterval(() => {
      const r = this.stored - readings;
      const b = this.commits - batches;
      readings = this.stored;
      batches = this.commits;
      if (r > 0)
        log.info(
          { event: 'ingest.stats', readings: r, commits: b },
          'readings stored in the last minute',
        );
    }, 60_000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
