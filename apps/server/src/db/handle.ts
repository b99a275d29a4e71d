import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { WalSync } from './durable-sqlite.js';
import type { WalCheckpointer } from './wal-checkpointer.js';
import type { SqliteReader } from './sqlite-reader.js';

/** An open database as the server holds it, in either dialect. */
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
  /** SQLite's connection for history and the back-test, in a thread of its own (decision 0047). */
  reader?: SqliteReader | undefined;
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

/** What a dialect's opener answers; openDatabase adds the DATA_DIR's part. */
export type DialectHandle = Omit<DbHandle, 'instanceId' | 'dataDirTightenedFrom'>;
