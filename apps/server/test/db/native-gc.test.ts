import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// better-sqlite3 up to 12 aborted the whole process on Node 24 (`Assertion failed: (env) !=
// nullptr` in a Statement's destructor) whenever the garbage collector freed a statement: in
// the field that is a long-running server dying under ordinary traffic. This drives exactly
// that path, in a child process of its own so an abort fails this test instead of the run.
const require = createRequire(import.meta.url);
const driver = require.resolve('better-sqlite3');

// Young-generation collections (scavenges) are what free the statements here: a 1 MiB young
// generation makes them happen every few hundred queries, as a busy server's do.
const churn = `
const SQLite = require(${JSON.stringify(driver)});
const db = new SQLite(':memory:');
db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
let found = 0;
let garbage = [];
for (let i = 0; i < 20000; i++) {
  // A fresh statement each time, dropped at once: only the collector frees it.
  db.prepare('INSERT INTO t (v) VALUES (?)').run('x' + i);
  found += db.prepare('SELECT count(*) AS n FROM t WHERE v = ?').get('x' + i).n;
  garbage.push({ text: 'y'.repeat(64) + i });
  if (garbage.length > 1000) garbage = [];
}
db.close();
console.log('found ' + found);
`;

describe('the SQLite driver under garbage collection', () => {
  it('survives statements freed by the collector while a busy process queries', () => {
    const r = spawnSync(process.execPath, ['--max-semi-space-size=1', '-e', churn], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.signal, r.stderr).toBeNull();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('found 20000');
    // The child may take its whole 60 s on a machine shared by busy test runs: wait for it.
  }, 70_000);
});
