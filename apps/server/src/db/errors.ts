/**
 * What a database error means, in either dialect: a duplicate, a missing row referred to, or
 * the database unavailable for now (answered 503), and how a log line may hold one.
 */

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
/**
 * PostgreSQL ended the transaction to break a deadlock (40P01), or could not serialize it
 * (40001): a meeting with another writer, not an outage. The same request passes when tried
 * again (503 with Retry-After), and it is logged apart from outages: a deadlock means two
 * writers took their locks in different orders, which is ours to mend.
 */
export function isTransactionConflict(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}

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
