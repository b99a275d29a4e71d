import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  login,
  seedUser,
  TEST_PASSWORD,
  usePostgres,
  type SeededUser,
  type TestApp,
} from '../helpers/app.js';
import { restoreSqlite } from '../../src/db/backup.js';
import { ownedCollar } from '../helpers/devices.js';
import { postAsCollar } from '../helpers/readings.js';

const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/backup-cli.ts');
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-backup-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** `npm run backup|restore -- <file>` as a process of its own, as an operator runs it. */
function run(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      tsx,
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(pathToFileURL(cli).href)}); process.exitCode = m.main(process.argv.slice(1));`,
      ...args,
    ],
    {
      // A folder without a .env: the settings are the ones given here.
      cwd: work,
      env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', MQTT_PORT: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

describe.skipIf(usePostgres)('npm run backup / restore (SQLite)', () => {
  let a: TestApp;
  let admin: SeededUser;
  let owner: SeededUser;
  let collar: Awaited<ReturnType<typeof ownedCollar>>;
  const start = Date.now() - 60 * 60_000;
  const reading = (i: number) => ({
    temperature: 20 + (i % 10),
    humidity: 40,
    battery: 90,
    timestamp: new Date(start + i * 1_000).toISOString(),
  });
  beforeAll(async () => {
    a = await createTestApp();
    await a.app.listen({ port: 0, host: '127.0.0.1' });
    admin = await seedUser(a, { role: 'admin' });
    owner = await seedUser(a);
    collar = await ownedCollar(a, admin, owner, 'Pepper');
    const first = Array.from({ length: 200 }, (_, i) => reading(i));
    expect((await postAsCollar(a, collar.device_id, collar.device_key, first)).statusCode).toBe(
      201,
    );
  });
  afterAll(() => a.close());

  it('copies a serving server’s data, and a server started on the restored copy reads it back', async () => {
    const file = path.join(work, 'pawguard-backup.db');
    // Readings keep arriving while the copy is taken.
    let posting = true;
    let posted = 200;
    const writer = (async () => {
      while (posting) {
        const batch = Array.from({ length: 20 }, (_, i) => reading(posted + i));
        const res = await postAsCollar(a, collar.device_id, collar.device_key, batch);
        expect(res.statusCode).toBe(201);
        posted += 20;
      }
    })();
    const r = await run(['backup', file], { DATA_DIR: a.dataDir });
    posting = false;
    await writer;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Backed up .+ to .+pawguard-backup\.db \(\d+ KiB in \d+ ms\)\.\n$/);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    // Restored into a new DATA_DIR, as on a new machine.
    const dataDir = path.join(work, 'restored');
    const restored = await run(['restore', file], { DATA_DIR: dataDir });
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain(`as ${path.join(dataDir, 'pawguard.db')}`);

    const b = await createTestApp({ dataDir });
    try {
      // Its accounts: the owner signs in with the same password and sees the collar's readings.
      const token = await login(b, owner.email, TEST_PASSWORD);
      const page = async (query: string) => {
        const res = await b.app.inject({
          url: `/api/devices/${collar.id}/vitals?${query}`,
          headers: bearer(token),
        });
        expect(res.statusCode).toBe(200);
        return res.json() as { vitals: { timestamp: string }[]; total: number };
      };
      const { total } = await page('limit=1');
      // Everything stored before the backup began; what came during it, up to some commit.
      expect(total).toBeGreaterThanOrEqual(200);
      expect(total).toBeLessThanOrEqual(posted);
      expect(total % 20).toBe(0); // whole commits only: a consistent copy
      const oldest = await page(`limit=1&offset=${total - 1}`);
      expect(oldest.vitals[0]!.timestamp).toBe(reading(0).timestamp);
      const newest = await page('limit=1');
      expect(newest.vitals[0]!.timestamp).toBe(reading(total - 1).timestamp);
    } finally {
      await b.close();
    }
  });

  it('refuses to restore over the DATA_DIR of a running server', async () => {
    const file = path.join(work, 'second.db');
    expect((await run(['backup', file], { DATA_DIR: a.dataDir })).code).toBe(0);
    const r = await run(['restore', file], { DATA_DIR: a.dataDir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Another PawGuard server is already using ${a.dataDir}`);
  });

  it('moves the database it replaces aside, with its WAL, instead of deleting it', async () => {
    const file = path.join(work, 'pawguard-backup.db');
    const dataDir = path.join(work, 'restored-twice');
    expect((await run(['restore', file], { DATA_DIR: dataDir })).code).toBe(0);
    fs.writeFileSync(path.join(dataDir, 'pawguard.db-wal'), 'stale');
    const r = await run(['restore', file], { DATA_DIR: dataDir });
    expect(r.code, r.stderr).toBe(0);
    const names = fs.readdirSync(dataDir);
    expect(names).not.toContain('pawguard.db-wal');
    expect(names.filter((n) => n.includes('before-restore')).sort()).toEqual([
      expect.stringMatching(/^pawguard\.db\.before-restore-[\dTZ-]+$/),
      expect.stringMatching(/^pawguard\.db\.before-restore-[\dTZ-]+-wal$/),
    ]);
  });

  it('leaves the database there as it was when the backup cannot be copied in', () => {
    const file = path.join(work, 'pawguard-backup.db');
    const dataDir = path.join(work, 'restored-twice');
    const db = path.join(dataDir, 'pawguard.db');
    fs.writeFileSync(`${db}-wal`, 'the WAL of the database in use');
    const before = fs.readFileSync(db);
    const asideBefore = fs.readdirSync(dataDir).filter((n) => n.includes('before-restore'));
    // A file where the copy would go makes it fail, as a full disk would.
    const blocker = `${db}.restoring-${process.pid}`;
    fs.writeFileSync(blocker, '');
    try {
      expect(() => restoreSqlite(dataDir, file)).toThrow(
        /The restore failed, and the database was left as it was/,
      );
    } finally {
      fs.rmSync(blocker, { force: true });
    }
    expect(fs.readFileSync(db).equals(before)).toBe(true);
    expect(fs.readFileSync(`${db}-wal`, 'utf8')).toBe('the WAL of the database in use');
    expect(fs.readdirSync(dataDir).filter((n) => n.includes('before-restore'))).toEqual(
      asideBefore,
    );
  });

  it('never overwrites a file, and says what is wrong with a bad DATA_DIR or backup', async () => {
    const existing = path.join(work, 'existing.db');
    fs.writeFileSync(existing, 'x');
    const over = await run(['backup', existing], { DATA_DIR: a.dataDir });
    expect(over.code).toBe(1);
    expect(over.stderr).toContain('already exists: name a new file');
    expect(fs.readFileSync(existing, 'utf8')).toBe('x');

    const empty = path.join(work, 'empty-data');
    const none = await run(['backup', path.join(work, 'none.db')], { DATA_DIR: empty });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('There is no database at');

    const junk = await run(['restore', existing], { DATA_DIR: path.join(work, 'junk') });
    expect(junk.code).toBe(1);
    expect(junk.stderr).toMatch(/is not a (readable SQLite|PawGuard) database/);
    expect(fs.existsSync(path.join(work, 'junk', 'pawguard.db'))).toBe(false);

    const usage = await run(['backup'], { DATA_DIR: a.dataDir });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('npm run backup -- <file>');
  });
});

describe('npm run backup with DATABASE_URL', () => {
  it('says to use pg_dump (and pg_restore), and copies nothing', async () => {
    const env = {
      DATA_DIR: path.join(work, 'pg'),
      DATABASE_URL: 'postgres://pawguard@db.example.com:5432/pawguard',
      JWT_SECRET: 'x'.repeat(64),
    };
    const file = path.join(work, 'pg.db');
    const backup = await run(['backup', file], env);
    expect(backup.code).toBe(2);
    expect(backup.stderr).toContain('pg_dump --format=custom');
    expect(fs.existsSync(file)).toBe(false);
    const restore = await run(['restore', file], env);
    expect(restore.code).toBe(2);
    expect(restore.stderr).toContain('pg_restore');
  });
});
