import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, openDatabase, type DbHandle } from '../../src/db/index.js';
import { createMailTransport } from '../../src/services/mail-transport.js';

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
