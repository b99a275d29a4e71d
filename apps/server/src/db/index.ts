/**
 * The database, as the rest of the server imports it: opening it (open.ts: DATA_DIR, then
 * sqlite.ts or postgres.ts), migrating it (migrate.ts) and reading its errors (errors.ts).
 */
export type { Dialect, DbHandle } from './handle.js';
export { openDatabase, type OpenDbOptions } from './open.js';
export { migrateToLatest } from './migrate.js';
export { DatabaseUnavailableError } from './postgres.js';
export { DataDirError, DataDirLockedError } from './data-dir-lock.js';
export {
  isDatabaseUnavailable,
  isForeignKeyViolation,
  isStorageFailure,
  isTransactionConflict,
  isUniqueViolation,
  loggableDbError,
} from './errors.js';
