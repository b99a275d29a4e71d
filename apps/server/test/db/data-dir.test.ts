import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DataDirError,
  DataDirLockedError,
  openDatabase,
  type DbHandle,
} from '../../src/db/index.js';
import { createMailTransport } from '../../src/services/mail-transport.js';
import { resolveJwtSecret } from '../../src/bootstrap.js';
import { loadConfig } from '../../src/config/env.js';

const opened: DbHandle[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const handle of opened.splice(0)) await handle.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function freshParent(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-datadir-'));
  dirs.push(dir);
  return dir;
}

describe('DATA_DIR (SQLite)', () => {
  it('is created private to the server, since it holds password hashes and secrets', async () => {
    const dataDir = path.join(freshParent(), 'data');
    opened.push(await openDatabase({ dataDir }));
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
  });

  it('keeps the database, its -wal and -shm files and the mail outbox readable by the server only', async () => {
    const dataDir = path.join(freshParent(), 'data');
    const handle = await openDatabase({ dataDir });
    opened.push(handle);
    await handle.db.schema.createTable('probe').addColumn('x', 'integer').execute();
    for (const f of ['pawguard.db', 'pawguard.db-wal', 'pawguard.db-shm']) {
      const file = path.join(dataDir, f);
      if (fs.existsSync(file)) expect(fs.statSync(file).mode & 0o777, f).toBe(0o600);
    }
    expect(fs.existsSync(path.join(dataDir, 'pawguard.db-wal'))).toBe(true);
    const transport = createMailTransport({
      smtpUrl: undefined,
      from: 'PawGuard <a@b.c>',
      outboxDir: path.join(dataDir, 'outbox'),
    });
    const { location } = await transport.send({ to: 'x@example.com', subject: 's', text: 't' });
    transport.close();
    expect(fs.statSync(location!).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(dataDir, 'outbox')).mode & 0o777).toBe(0o700);
  });

  it('is owned by one server: a second one refuses with a message naming the folder', async () => {
    const dataDir = path.join(freshParent(), 'data');
    opened.push(await openDatabase({ dataDir }));
    const second = openDatabase({ dataDir });
    await expect(second).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(second).rejects.toThrow(`Another PawGuard server is already using ${dataDir}`);
  });

  it('is free again once the owner closes it', async () => {
    const dataDir = path.join(freshParent(), 'data');
    const first = await openDatabase({ dataDir });
    await first.close();
    opened.push(await openDatabase({ dataDir }));
  });
});

describe('DATA_DIR that other accounts could write (CFG-2)', () => {
  it('an existing 0777 DATA_DIR is made private (0700) at start', async () => {
    const dataDir = path.join(freshParent(), 'data');
    fs.mkdirSync(dataDir);
    fs.chmodSync(dataDir, 0o777);
    const handle = await openDatabase({ dataDir });
    opened.push(handle);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(handle.dataDirTightenedFrom).toBe(0o777);
  });

  it('a group-readable one too; a private one is left as it is', async () => {
    const open = path.join(freshParent(), 'data');
    fs.mkdirSync(open);
    fs.chmodSync(open, 0o750);
    opened.push(await openDatabase({ dataDir: open }));
    expect(fs.statSync(open).mode & 0o777).toBe(0o700);
    const closed = path.join(freshParent(), 'data');
    fs.mkdirSync(closed, { mode: 0o700 });
    const handle = await openDatabase({ dataDir: closed });
    opened.push(handle);
    expect(handle.dataDirTightenedFrom).toBeNull();
  });

  const secretConfig = (dataDir: string) => loadConfig({ DATA_DIR: dataDir });
  const SECRET = `${'k'.repeat(64)}\n`;

  it('refuses a jwt-secret that the group or everyone may write, naming the file', () => {
    const dataDir = freshParent();
    const file = path.join(dataDir, 'jwt-secret');
    for (const mode of [0o666, 0o620, 0o602]) {
      fs.writeFileSync(file, SECRET);
      fs.chmodSync(file, mode);
      expect(() => resolveJwtSecret(secretConfig(dataDir))).toThrow(DataDirError);
      expect(() => resolveJwtSecret(secretConfig(dataDir))).toThrow(
        `${file} can be written by another account`,
      );
      // Nothing was trusted, and nothing was replaced either.
      expect(fs.readFileSync(file, 'utf8')).toBe(SECRET);
    }
    fs.chmodSync(file, 0o600);
    expect(resolveJwtSecret(secretConfig(dataDir))).toBe('k'.repeat(64));
    // Readable by the group: taken, and made the server's alone (a reader could sign tokens).
    fs.chmodSync(file, 0o640);
    expect(resolveJwtSecret(secretConfig(dataDir))).toBe('k'.repeat(64));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('refuses a jwt-secret that is a symbolic link, and never writes through one', () => {
    const dataDir = freshParent();
    const file = path.join(dataDir, 'jwt-secret');
    // A readable file elsewhere, long enough to pass for a secret, planted as the secret.
    const elsewhere = path.join(freshParent(), 'known');
    fs.writeFileSync(elsewhere, SECRET, { mode: 0o644 });
    fs.symlinkSync(elsewhere, file);
    expect(() => resolveJwtSecret(secretConfig(dataDir))).toThrow(
      `${file} is a symbolic link, so it is not trusted`,
    );
    // A link to nowhere is not followed to make a secret there either.
    fs.rmSync(file);
    const nowhere = path.join(path.dirname(elsewhere), 'made-through-the-link');
    fs.symlinkSync(nowhere, file);
    expect(() => resolveJwtSecret(secretConfig(dataDir))).toThrow(/is a symbolic link/);
    expect(fs.existsSync(nowhere)).toBe(false);
    expect(fs.readFileSync(elsewhere, 'utf8')).toBe(SECRET);
  });

  it('refuses a jwt-secret that is not a regular file', () => {
    const dataDir = freshParent();
    fs.mkdirSync(path.join(dataDir, 'jwt-secret'), { mode: 0o700 });
    expect(() => resolveJwtSecret(secretConfig(dataDir))).toThrow(/is not a regular file/);
  });

  it('replaces a jwt-secret too short to be one with a new secret of its own', () => {
    const dataDir = freshParent();
    const file = path.join(dataDir, 'jwt-secret');
    fs.writeFileSync(file, 'short\n', { mode: 0o600 });
    const made = resolveJwtSecret(secretConfig(dataDir));
    expect(made.length).toBeGreaterThanOrEqual(32);
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(made);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it.skipIf(process.getuid?.() !== 0)(
    'refuses a jwt-secret owned by another account (it can rewrite it)',
    () => {
      const dataDir = freshParent();
      const file = path.join(dataDir, 'jwt-secret');
      fs.writeFileSync(file, SECRET, { mode: 0o600 });
      fs.chownSync(file, 4242, 4242);
      expect(() => resolveJwtSecret(secretConfig(dataDir))).toThrow(/owner uid 4242/);
    },
  );
});
