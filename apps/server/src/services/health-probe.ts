import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Clock } from './clock.js';

/** How long one answer from the database stands for every health check. */
export const HEALTH_CACHE_MS = 1_000;
/** Longer than this, and the database counts as not answering. */
export const PING_TIMEOUT_MS = 2_000;

/**
 * Whether the database answers. GET /api/health is public and not rate-limited (load
 * balancers poll it), so a flood must cost nothing: callers within a second share one
 * answer, and concurrent callers share one query in flight.
 */
export class HealthProbe {
  private last: { ok: boolean; at: number } | undefined;
  private inFlight: Promise<boolean> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async databaseAnswers(): Promise<boolean> {
    const now = this.clock.now().getTime();
    if (this.last && now - this.last.at < HEALTH_CACHE_MS) return this.last.ok;
    this.inFlight ??= this.ping().then((ok) => {
      this.last = { ok, at: this.clock.now().getTime() };
      this.inFlight = undefined;
      return ok;
    });
    return this.inFlight;
  }

  /**
   * One round trip to the database; a database that does not answer within PING_TIMEOUT_MS
   * counts as down (a hung connection must not hang every health check behind it).
   */
  async ping(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS);
      timer.unref();
    });
    try {
      return await Promise.race([
        sql`select 1`.execute(this.db).then(
          () => true,
          () => false,
        ),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}
