import { ConfigError, loadConfig, loadEnvFile } from './config/env.js';
import { BackupError, backupSqlite, restoreSqlite } from './db/backup.js';
import { DataDirLockedError } from './db/data-dir-lock.js';

const USAGE = `Usage:
  npm run backup -- <file>    a consistent copy of the SQLite database, while the server runs
  npm run restore -- <file>   put a backup in place (stop the server first)`;

/**
 * `npm run backup` and `npm run restore` (scripts/backup.mjs): the same settings as the server
 * (.env in the working directory, then the environment), so DATA_DIR means the same folder.
 * Answers the exit status: 0 done, 1 failed, 2 used wrongly or not for this database.
 */
export function main(args: string[], out = process.stdout, err = process.stderr): number {
  const [command, file, ...rest] = args;
  if ((command !== 'backup' && command !== 'restore') || !file || rest.length > 0) {
    err.write(`${USAGE}\n`);
    return 2;
  }
  let config;
  try {
    loadEnvFile();
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      err.write(`${e.message}\n`);
      return 1;
    }
    throw e;
  }
  if (config.databaseUrl) {
    err.write(
      command === 'backup'
        ? 'DATABASE_URL is set: the data is in PostgreSQL. Back it up with pg_dump, e.g.\n  pg_dump --format=custom --file=pawguard.dump "$DATABASE_URL"\n(docs/operations.md, Backups).\n'
        : 'DATABASE_URL is set: the data is in PostgreSQL. Restore a pg_dump backup with pg_restore, e.g.\n  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" pawguard.dump\n(docs/operations.md, Restoring).\n',
    );
    return 2;
  }
  try {
    if (command === 'backup') {
      const r = backupSqlite(config.dataDir, file);
      out.write(
        `Backed up ${config.dataDir} to ${r.file} (${(r.bytes / 1024).toFixed(0)} KiB in ${r.ms} ms).\n`,
      );
    } else {
      const r = restoreSqlite(config.dataDir, file);
      out.write(
        `Restored ${file} as ${r.file}.${r.aside ? ` The database it replaces is kept as ${r.aside}.` : ''} Start the server to use it.\n`,
      );
    }
    return 0;
  } catch (e) {
    if (e instanceof BackupError || e instanceof DataDirLockedError) {
      err.write(`${e.message}\n`);
      return 1;
    }
    throw e;
  }
}
