import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { sqliteFile } from '../db/data-dir-lock.js';
import { isStorageFailure } from '../db/index.js';
import type { Database } from '../db/schema.js';
import type { Clock } from './clock.js';

/** How long one answer from the database stands for every health check. */
export const HEALTH_CACHE_MS = 1_000;
/** Longer than this, and the database counts as not answering. */
export const PING_TIMEOUT_MS = 2_000;

/** After a write failed for the storage's sake, health reads degraded for this long. */
export const WRITE_FAILURE_DEGRADED_MS = 30_000;

/**
 * When a write last failed because the database's storage did (isStorageFailure: a full disk,
 * an I/O error, read-only). The probes ask the database whether it answers, and on SQLite write
 * a file beside it; on PostgreSQL nothing cheap shows a full disk or a failing one but a
 * failed write, so the writes that fail (answered 503, or an MQTT reading not stored) are
 * noted here, and health reads degraded for WRITE_FAILURE_DEGRADED_MS after the last.
 */
export class WriteFailures {
  private lastAt: number | undefined;

  constructor(private readonly clock: Clock) {}

  /** Notes `err` when it is a storage failure; anything else is ignored. */
  note(err: unknown): void {
    if (isStorageFailure(err)) this.lastAt = this.clock.now().getTime();
  }

  /** Whether a write failed for the storage's sake within WRITE_FAILURE_DEGRADED_MS. */
  recent(): boolean {
    return (
      this.lastAt !== undefined &&
      this.clock.now().getTime() - this.lastAt < WRITE_FAILURE_DEGRADED_MS
    );
  }
}

/**
 * Whether the server can do its work: the database answers and writes land (GET /api/health).
 * The endpoint is public and not rate-limited (load balancers poll it), so a flood must cost
 * nothing: callers within a second share one answer, and concurrent callers share one check.
 */
export class HealthProbe {
  private last: { ok: boolean; at: number } | undefined;
  private inFlight: Promise<boolean> | undefined;

  constructor(
    private readonly d: {
      db: Kysely<Database>;
      dialect: 'sqlite' | 'postgres';
      dataDir: string;
      clock: Clock;
      writeFailures: WriteFailures;
    },
  ) {}

  async healthy(): Promise<boolean> {
    if (this.d.writeFailures.recent()) return false;
    const now = this.d.clock.now().getTime();
    if (this.last && now - this.last.at < HEALTH_CACHE_MS) return this.last.ok;
    this.inFlight ??= this.ping().then((ok) => {
      this.last = { ok, at: this.d.clock.now().getTime() };
      this.inFlight = undefined;
      return ok;
    });
    return this.inFlight;
  }

  /**
   * One round trip to the database and the write probe (writesLand); a check that does not
   * finish within PING_TIMEOUT_MS counts as failed (a hung connection or disk must not hang
   * every health check behind it). A full disk fails it, while every write answers 503; so
   * does a write that failed for the storage's sake lately (WriteFailures).
   */
  ping(): Promise<boolean> {
    return withDeadline(writesLand(this.d));
  }
}

/** What one write probe writes: a page, as the database's smallest write would take. */
const PROBE_BYTES = Buffer.alloc(4096);

/**
 * Whether the database answers and takes writes. PostgreSQL: it is neither a read-only standby
 * nor read-only. SQLite: this process may write its file, and a new file of a page, written
 * and removed in DATA_DIR (the database's disk), lands: a full disk (ENOSPC), a read-only
 * mount or an I/O error fail it, as they fail every commit. Nothing is written to the
 * database itself: a write would queue behind ingest's commits.
 */
export async function writesLand(d: {
  db: Kysely<Database>;
  dialect: 'sqlite' | 'postgres';
  dataDir: string;
}): Promise<boolean> {
  if (d.dialect === 'postgres') {
    const { rows } = await sql<{
      standby: boolean;
      read_only: string;
    }>`select pg_is_in_recovery() as standby, current_setting('transaction_read_only') as read_only`.execute(
      d.db,
    );
    return rows[0]?.standby === false && rows[0]?.read_only === 'off';
  }
  await sql`select 1`.execute(d.db);
  await fs.access(sqliteFile(d.dataDir), fs.constants.W_OK);
  // A name of its own per probe: the health and readiness probes may run at the same time.
  const file = path.join(d.dataDir, `.write-probe-${randomUUID()}`);
  try {
    await fs.writeFile(file, PROBE_BYTES, { flag: 'wx', mode: 0o600 });
  } finally {
    await fs.rm(file, { force: true });
  }
  return true;
}

export type ReadinessCheck = 'ok' | 'failed' | 'not configured';
export interface Readiness {
  ready: boolean;
  checks: {
    database: ReadinessCheck;
    redis: ReadinessCheck;
    mqtt: ReadinessCheck;
    disk: ReadinessCheck;
  };
  /** What failed, in words, when not ready. */
  failures: string[];
}

/**
 * Whether this instance can take traffic now (GET /api/health/ready): the database answers and
 * takes writes (writesLand), Redis answers when configured, the MQTT port listens when
 * configured, and DATA_DIR has room. Like HealthProbe, one answer stands for a second and
 * concurrent callers share one check, so polling costs nothing.
 */
export class ReadinessProbe {
  private last: { answer: Readiness; at: number } | undefined;
  private inFlight: Promise<Readiness> | undefined;

  constructor(
    private readonly d: {
      db: Kysely<Database>;
      dialect: 'sqlite' | 'postgres';
      dataDir: string;
      minFreeBytes: number;
      clock: Clock;
      writeFailures: WriteFailures;
      /** Set when REDIS_URL is. */
      redis?: { answers(): Promise<boolean> } | undefined;
      /** Set when MQTT_PORT is: the port it listens on, null when not listening. */
      mqtt?: { readonly port: number | null } | undefined;
    },
  ) {}

  async check(): Promise<Readiness> {
    const now = this.d.clock.now().getTime();
    if (this.last && now - this.last.at < HEALTH_CACHE_MS) return this.last.answer;
    this.inFlight ??= this.run().then((answer) => {
      this.last = { answer, at: this.d.clock.now().getTime() };
      this.inFlight = undefined;
      return answer;
    });
    return this.inFlight;
  }

  private async run(): Promise<Readiness> {
    const [database, redis, disk] = await Promise.all([
      withDeadline(this.databaseWritable()),
      this.d.redis ? withDeadline(this.d.redis.answers()) : undefined,
      withDeadline(this.diskHasRoom()),
    ]);
    const mqtt = this.d.mqtt ? this.d.mqtt.port !== null : undefined;
    const word = (ok: boolean | undefined): ReadinessCheck =>
      ok === undefined ? 'not configured' : ok ? 'ok' : 'failed';
    const failures = [
      ...(database ? [] : ['database (not answering, or not taking writes)']),
      ...(redis === false ? ['redis (not answering)'] : []),
      ...(mqtt === false ? ['mqtt (not listening)'] : []),
      ...(disk
        ? []
        : [`disk (less than ${Math.round(this.d.minFreeBytes / 1_048_576)} MB free in DATA_DIR)`]),
    ];
    return {
      ready: failures.length === 0,
      checks: { database: word(database), redis: word(redis), mqtt: word(mqtt), disk: word(disk) },
      failures,
    };
  }

  private async databaseWritable(): Promise<boolean> {
    return !this.d.writeFailures.recent() && (await writesLand(this.d));
  }

  private async diskHasRoom(): Promise<boolean> {
    // On PostgreSQL DATA_DIR may not exist yet (nothing was written to it): its disk is the one
    // of the nearest folder above it that does.
    let dir = this.d.dataDir;
    for (;;) {
      try {
        const s = await fs.statfs(dir);
        return s.bavail * s.bsize >= this.d.minFreeBytes;
      } catch (err) {
        const parent = path.dirname(dir);
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || parent === dir) throw err;
        dir = parent;
      }
    }
  }
}

/** False when the check fails or does not finish within PING_TIMEOUT_MS. */
async function withDeadline(check: Promise<boolean>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS);
    timer.unref();
  });
  try {
    return await Promise.race([check.catch(() => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
