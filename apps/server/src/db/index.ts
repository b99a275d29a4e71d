import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import { Migrator, type MigrationProvider } from 'kysely/migration';
import type { Database } from './schema.js';
import { migrations } from './migrations/index.js';
import { DurableSqliteDialect, WalSync } from './durable-sqlite.js';
import {
  DataDirError,
  DataDirLockedError,
  instanceIdOf,
  lockDataDir,
  prepareDataDir,
  sqliteFile,
} from './data-dir-lock.js';
import { WalCheckpointer, WRITER_CHECKPOINT_PAGES } from './wal-checkpointer.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DbHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** The PostgreSQL schema in use, when not the default (tests give each worker its own). */
  schema?: string | undefined;
  /** SQLite's WAL flush, for tests and figures. */
  wal?: WalSync | undefined;
  /** SQLite's checkpoints beside the server, for tests and figures. */
  checkpointer?: WalCheckpointer | undefined;
  /**
   * What migrations run on, when not `db`: on PostgreSQL the same pool without the query
   * deadline, since building an index on a large table may rightly take longer.
   */
  migrationDb?: Kysely<Database> | undefined;
  /** PostgreSQL's connection string (for a dedicated LISTEN connection). */
  url?: string | undefined;
  /**
   * Told when PostgreSQL drops an idle connection of the pool (a restart, a failover, an idle
   * timeout on the way): the pool has let it go and opens another when one is needed.
   */
  onConnectionLost?: ((err: Error) => void) | undefined;
  /** This instance's name (DATA_DIR/instance-id): whose mail claims are whose. */
  instanceId: string;
  /** The mode DATA_DIR had when it was wider than 0700 and was made private at start; else null. */
  dataDirTightenedFrom: number | null;
  /** Closes the pool / file and releases the DATA_DIR lock. */
  close(): Promise<void>;
}

export { DataDirError, DataDirLockedError };

/** The PostgreSQL server of DATABASE_URL did not answer at start: the server does not start. */
export class DatabaseUnavailableError extends Error {}

// Counts arrive as BIGINT (20) and NUMERIC (1700); both fit a JS number for our data.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(1700, (v) => Number.parseFloat(v));

export interface OpenDbOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** PostgreSQL schema to work in (tests give each worker its own). */
  pgSchema?: string;
  /** How long PostgreSQL is waited for at start and for each new connection (ms; default 5 s). */
  connectTimeoutMs?: number;
  /** How long a query on an open PostgreSQL connection waits for an answer (ms; default 15 s). */
  queryTimeoutMs?: number;
}

export async function openDatabase(opts: OpenDbOptions): Promise<DbHandle> {
  // Private: it holds the database (password hashes, sessions) and generated secrets.
  const tightenedFrom = prepareDataDir(opts.dataDir);
  // One server process per DATA_DIR, on either database: its instance id is that process's.
  // Taken before the database is touched, so a second server never opens (or closes) a
  // descriptor of it: closing one would drop the POSIX locks the first server's connection holds.
  const lock = lockDataDir(opts.dataDir);
  try {
    const instanceId = instanceIdOf(opts.dataDir);
    const handle = opts.databaseUrl
      ? await openPostgres(
          opts.databaseUrl,
          opts.pgSchema,
          opts.connectTimeoutMs,
          opts.queryTimeoutMs,
        )
      : openSqlite(opts.dataDir);
    const close = handle.close;
    return Object.assign(handle, {
      instanceId,
      dataDirTightenedFrom: tightenedFrom,
      close: async () => {
        try {
          await close();
        } finally {
          lock.release();
        }
      },
    });
  } catch (err) {
    lock.release();
    throw err;
  }
}

function openSqlite(dataDir: string): Omit<DbHandle, 'instanceId' | 'dataDirTightenedFrom'> {
  const file = sqliteFile(dataDir);
  // Created 0600 before SQLite opens it: SQLite gives its -wal and -shm files the same mode,
  // and the process umask (often 022) would otherwise leave them readable by every account.
  if (!fs.existsSync(file)) fs.closeSync(fs.openSync(file, 'a', 0o600));
  fs.chmodSync(file, 0o600);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  // A commit is on disk before anyone is told it happened: COMMIT writes the WAL, and the
  // driver flushes it on the thread pool before the commit's promise resolves (durable-sqlite.ts).
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma(`wal_autocheckpoint = ${WRITER_CHECKPOINT_PAGES}`);
  const wal = new WalSync(`${file}-wal`);
  // Checkpoints run beside the server (wal-checkpointer.ts, decision 0026).
  const checkpointer = new WalCheckpointer(file);
  const wrote = { pending: false };
  const db = new Kysely<Database>({
    dialect: new DurableSqliteDialect(
      { database: withStatementCache(sqlite, wrote) },
      sqlite,
      wal,
      wrote,
      () => checkpointer.committed(),
    ),
  });
  return {
    db,
    dialect: 'sqlite',
    wal,
    checkpointer,
    close: async () => {
      await db.destroy();
      await checkpointer.close();
      await wal.close();
      // Kysely closes the file only if it ever ran a query; the lock must go either way.
      if (sqlite.open) sqlite.close();
    },
  };
}

/**
 * Kysely prepares every query afresh; preparing costs more than running most of ours (a key
 * look-up, a session check). Statements are kept by their SQL text, the least recently used
 * dropped past `max`. Safe because better-sqlite3 runs one statement at a time and we never
 * stream (an open iterator would hold its statement).
 */
function withStatementCache(sqlite: SQLite.Database, wrote: { pending: boolean }, max = 500) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (stmt) {
        cache.delete(sql);
      } else {
        stmt = sqlite.prepare(sql);
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, stmt);
      // Prepared right before it runs: a statement that writes makes the next commit flush.
      if (!stmt.readonly) wrote.pending = true;
      return stmt;
    },
  };
}

async function openPostgres(
  url: string,
  schema: string | undefined,
  connectTimeoutMs = CONNECT_TIMEOUT_MS,
  queryTimeoutMs = QUERY_TIMEOUT_MS,
): Promise<Omit<DbHandle, 'instanceId' | 'dataDirTightenedFrom'>> {
  const searchPath = schema ? `-c search_path=${schema}` : '';
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // A new connection to a database that cannot be reached fails its request within seconds
    // (503) instead of holding it for as long as the network lets it. (A query on a connection
    // already open has a deadline of its own: withQueryDeadline, and sessionLimits below.)
    connectionTimeoutMillis: connectTimeoutMs,
    keepAlive: true,
    options: `${searchPath} ${sessionLimits(queryTimeoutMs)}`.trim(),
  });
  const db = new Kysely<Database>({
    // The server's own statement_timeout ends a slow query first, with an error the connection
    // survives; the cut is for a path that went silent, when no answer can come at all.
    dialect: new PostgresDialect({
      pool: withQueryDeadline(pool, queryTimeoutMs + CUT_AFTER_SERVER_TIMEOUT_MS),
    }),
  });
  // Migrations on a pool of their own, without those limits: building an index on a large
  // table may rightly take longer than any request. Its connection closes when idle.
  const migrationPool = new pg.Pool({
    connectionString: url,
    max: 1,
    connectionTimeoutMillis: connectTimeoutMs,
    ...(searchPath ? { options: searchPath } : {}),
  });
  // Its idle connection may be dropped (a restart) like any other: nothing to tell.
  migrationPool.on('error', () => undefined);
  const migrationDb = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: migrationPool }),
  });
  // One connection of its own first, with a deadline: a server that takes the connection and
  // never answers must not hold the start-up for ever.
  const probe = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: connectTimeoutMs,
    query_timeout: connectTimeoutMs,
  });
  probe.on('error', () => undefined); // a failure comes back from connect() or query()
  try {
    await probe.connect();
    await probe.query('select 1');
  } catch (err) {
    await Promise.all([db.destroy(), migrationDb.destroy()]);
    throw new DatabaseUnavailableError(
      `PostgreSQL did not answer at ${whereIs(url)} (DATABASE_URL): ${(err as Error).message}`,
    );
  } finally {
    void probe.end().catch(() => undefined);
  }
  const handle: Omit<DbHandle, 'instanceId' | 'dataDirTightenedFrom'> = {
    db,
    migrationDb,
    dialect: 'postgres',
    schema,
    url,
    close: async () => {
      await Promise.all([db.destroy(), migrationDb.destroy()]);
    },
  };
  // PostgreSQL may drop a connection at any time (a restart, a failover, an idle-in-transaction
  // timeout). node-postgres raises that as an 'error' event on the connection, and on the pool
  // too when the connection was idle; unheard, either would end the process. Each is told once,
  // here; the pool lets the connection go (at once when idle, else when it is given back), and
  // a query on it fails (503).
  pool.on('connect', (client) => client.on('error', (err) => handle.onConnectionLost?.(err)));
  pool.on('error', () => undefined);
  return handle;
}

/** How long start-up, and then each new connection of the pool, waits for PostgreSQL. */
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * How long a query may take on a connection already open. PawGuard's slowest request (a week's
 * history) takes a small part of it; migrations have no limit.
 */
const QUERY_TIMEOUT_MS = 15_000;

/** The client cuts a connection this long after the server should have ended the query itself. */
const CUT_AFTER_SERVER_TIMEOUT_MS = 2_000;

/**
 * Limits PostgreSQL keeps for each of our sessions, so that what the client gives up on the
 * server gives up on too: a statement runs at most `queryTimeoutMs` (57014, answered 503), a lock
 * is waited for at most 5 s (55P03, 503), and a session left inside a transaction (ours, cut on a
 * path that went silent) is ended after 30 s, with its locks, as is one whose client stopped
 * answering TCP keepalives for about a minute. Without them, a cut transaction would keep its
 * collar's row locked until PostgreSQL noticed, hours later, and every retry would wait on it.
 */
function sessionLimits(queryTimeoutMs: number): string {
  return [
    `statement_timeout=${queryTimeoutMs}`,
    'lock_timeout=5000',
    'idle_in_transaction_session_timeout=30000',
    'tcp_keepalives_idle=30',
    'tcp_keepalives_interval=10',
    'tcp_keepalives_count=3',
  ]
    .map((setting) => `-c ${setting}`)
    .join(' ');
}

/**
 * The pool as Kysely sees it, with a deadline on every query. On a network path that went
 * silent, TCP would keep a query waiting for many minutes, and every request behind it. When
 * no answer comes within `ms`, the connection is cut: its query fails as a lost connection
 * (503, with Retry-After), and the pool lets the connection go and opens another when one is
 * needed. PostgreSQL rolls back the transaction it was in once it ends the session
 * (sessionLimits). A COMMIT whose answer was on its way when the cut came did commit: the
 * request is answered 503 all the same, and a client that sends it again may store it twice,
 * except readings, which a repeated timestamp stores once. node-postgres's own `query_timeout`
 * is not used: it fails the query but leaves the connection in the pool, waiting still.
 */
function withQueryDeadline(pool: pg.Pool, ms: number): PostgresPool {
  return {
    options: pool.options,
    end: () => pool.end(),
    async connect() {
      const client = await pool.connect();
      return {
        query: ((text: unknown, values?: unknown[]) => {
          // A cursor (Kysely's streamed queries, unused here) goes through as it is.
          if (typeof text !== 'string') return client.query(text as never);
          const timer = setTimeout(() => cut(client, ms), ms);
          return client.query(text, values).finally(() => clearTimeout(timer));
        }) as unknown as PostgresPoolClient['query'],
        // Kysely asks for a connection to be discarded after a failed ROLLBACK.
        release: (destroy?: boolean) => client.release(destroy),
      };
    },
  };
}

/** Ends a connection whose query has had no answer: the socket is closed, not politely ended. */
function cut(client: pg.PoolClient, ms: number): void {
  const stream = (client as unknown as { connection?: { stream?: { destroy(err?: Error): void } } })
    .connection?.stream;
  stream?.destroy(
    Object.assign(
      new Error(`PostgreSQL gave no answer within ${ms / 1000} s; the connection was closed`),
      { code: 'ETIMEDOUT' },
    ),
  );
}

/** Host, port and database of a connection string, never its user or password. */
function whereIs(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname || 'the local socket'}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'the address given';
  }
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * `schema` names where the migration bookkeeping lives: Kysely looks its tables up by name in
 * every schema, so a second schema in the same database would otherwise find the first's.
 */
export async function migrateToLatest(db: Kysely<Database>, schema?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(
      `Database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`,
    );
  }
}

/** Unique-constraint violations in either dialect. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string };
  return (
    e?.code === '23505' ||
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/** Network failures on the way to PostgreSQL. */
const NETWORK_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * PostgreSQL cannot be reached, is shutting down or starting, takes no writes (read-only), or
 * is out of connections, disk or memory, or a statement or lock wait ran past our session limits. Not 08P01 (a protocol
 * violation) nor 53400 (a configured limit): those are mistakes of ours, not a passing state.
 */
const PG_UNAVAILABLE = new Set([
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53000',
  '53100',
  '53200',
  '53300',
  '57P01',
  '57P02',
  '57P03',
  // Our own session limits (sessionLimits): a statement that ran too long, a lock not had in
  // time. The database is busy or something holds a row; the request may well pass in a moment.
  '57014',
  '55P03',
  // Writes refused by a database that is read-only now: a standby after a failover, or a
  // database set read-only while its disk is rescued. It takes writes again once it is primary.
  '25006',
  // The server's own system or I/O error (its disk failing under it): not ours to fix by
  // asking differently, and it may pass once the disk is mended.
  '58000',
  '58030',
]);
/** What node-postgres says, without a code, when a connection cannot be made or is lost. */
const PG_CONNECTION_LOST =
  /^(timeout exceeded when trying to connect|Connection terminated|Client has encountered a connection error)/;

/**
 * The database cannot take the request now, though it may in a moment: PostgreSQL as above,
 * or SQLite's disk full, its file unreadable or unwritable (read-only), or locked by another process past
 * the busy timeout. Answered 503 with Retry-After, not 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (NETWORK_ERRORS.has(code) || PG_UNAVAILABLE.has(code)) return true;
  if (
    code === 'SQLITE_BUSY' ||
    code === 'SQLITE_FULL' ||
    code.startsWith('SQLITE_IOERR') ||
    code.startsWith('SQLITE_READONLY')
  )
    return true;
  return !code && typeof e?.message === 'string' && PG_CONNECTION_LOST.test(e.message);
}

/**
 * The database's storage fails writes: PostgreSQL out of disk or memory (53100, 53200), a
 * system or I/O error (class 58) or read-only (25006), not merely out of connections; SQLite's disk full, an I/O error
 * or its file read-only. GET /api/health reports degraded for a while after one
 * (WriteFailures): a probe that only asks the database would not see them.
 */
export function isStorageFailure(err: unknown): boolean {
  if (!isDatabaseUnavailable(err)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string') return false;
  return (
    code === '53100' ||
    code === '53200' ||
    code.startsWith('58') ||
    code === '25006' ||
    code === 'SQLITE_FULL' ||
    code.startsWith('SQLITE_IOERR') ||
    code.startsWith('SQLITE_READONLY')
  );
}

/**
 * A database error as a log line may hold it: its kind, code and message. Never the error
 * object itself: node-postgres hangs the connection on it (`err.client`), with its user, host
 * and TLS settings, which a log must not carry.
 */
export function loggableDbError(err: unknown): { type: string; code?: string; message: string } {
  const e = err as { name?: unknown; code?: unknown; message?: unknown } | null;
  return {
    type: typeof e?.name === 'string' ? e.name : 'Error',
    ...(typeof e?.code === 'string' ? { code: e.code } : {}),
    message: typeof e?.message === 'string' ? e.message : String(err),
  };
}

/** A row referred to (a pet, a user) is gone: foreign-key violations in either dialect. */
export function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string };
  return e?.code === '23503' || e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
