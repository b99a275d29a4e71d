import pg from 'pg';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import type { Database } from './schema.js';
import type { DialectHandle } from './handle.js';

/** The PostgreSQL server of DATABASE_URL did not answer at start: the server does not start. */
export class DatabaseUnavailableError extends Error {}

// Counts arrive as BIGINT (20) and NUMERIC (1700); both fit a JS number for our data.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(1700, (v) => Number.parseFloat(v));

/** PostgreSQL at DATABASE_URL: a pool with deadlines, and one for migrations without them. */
export async function openPostgres(
  url: string,
  schema: string | undefined,
  connectTimeoutMs = CONNECT_TIMEOUT_MS,
  queryTimeoutMs = QUERY_TIMEOUT_MS,
): Promise<DialectHandle> {
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
  const handle: DialectHandle = {
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
