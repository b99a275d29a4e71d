import type { FastifyBaseLogger } from 'fastify';
import type { ReadingsRepository } from '../repositories/readings-repository.js';
import type { Clock } from './clock.js';

const DAY_MS = 86_400_000;
/** Rows per delete: each is a short transaction, so ingest never waits long behind it. */
export const PRUNE_BATCH = 1_000;
const EVERY_MS = 60 * 60_000;

/** Deletes raw readings older than READINGS_RETENTION_DAYS, in small batches, every hour. */
export class ReadingsRetention {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly d: {
      readings: ReadingsRepository;
      clock: Clock;
      log: FastifyBaseLogger;
      days: number;
    },
  ) {}

  start(): void {
    const run = () =>
      void this.pruneNow().catch((err: unknown) =>
        this.d.log.warn({ err }, 'readings retention failed'),
      );
    this.timer = setInterval(run, EVERY_MS);
    this.timer.unref();
    setTimeout(run, 60_000).unref();
  }

  /** Prunes until nothing older than the cutoff is left; answers how many were deleted. */
  pruneNow(): Promise<number> {
    this.running ??= (async () => {
      const cutoff = this.d.clock.now().getTime() - this.d.days * DAY_MS;
      let total = 0;
      for (;;) {
        const n = await this.d.readings.pruneOlderThan(cutoff, PRUNE_BATCH);
        total += n;
        if (n < PRUNE_BATCH) break;
        // Let waiting requests (and ingest commits) run between batches.
        await new Promise((r) => setTimeout(r, 5));
      }
      if (total) this.d.log.info({ deleted: total, days: this.d.days }, 'old readings pruned');
      return total;
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
