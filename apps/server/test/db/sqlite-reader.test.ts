import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { CompiledQuery } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type DbHandle } from '../../src/db/index.js';
import { sqliteFile } from '../../src/db/data-dir-lock.js';
import { SqliteReader } from '../../src/db/sqlite-reader.js';
import {
  bearer,
  createTestApp,
  seedUser,
  usePostgres,
  type SeededUser,
  type TestApp,
} from '../helpers/app.js';
import { ownedCollar } from '../helpers/devices.js';
import { ago, postAsCollar } from '../helpers/readings.js';

/**
 * History and the back-test read their rollups on a connection of their own, in a thread of
 * its own (decision 0047): the event loop that acknowledges readings never waits for them.
 */
describe.skipIf(usePostgres)('chart reads on a reading thread (SQLite)', () => {
  let t: TestApp;
  let admin: SeededUser;
  let owner: SeededUser;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await seedUser(t, { role: 'admin' });
    owner = await seedUser(t);
  });
  afterAll(() => t.close());

  const reader = () => t.dbHandle.reader!;
  const history = async (id: string) => {
    const res = await t.app.inject({
      url: `/api/devices/${id}/history?range=1h`,
      headers: bearer(owner.token),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().buckets.reduce((n: number, b: { count: number }) => n + b.count, 0);
  };
  const backtest = async (id: string) => {
    const res = await t.app.inject({
      url: `/api/devices/${id}/risk/backtest?days=1`,
      headers: bearer(owner.token),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().readings;
  };
  let minute = 0;
  const post = async (c: { device_id: string; device_key: string }, n: number) => {
    const readings = Array.from({ length: n }, () => ({
      temperature: 24,
      humidity: 40,
      timestamp: ago(t, 50 * 60_000 - ++minute * 60_000),
    }));
    const res = await postAsCollar(t, c.device_id, c.device_key, readings);
    expect(res.statusCode, res.body).toBe(201);
  };

  it('answers from the thread, with every reading acknowledged before the read', async () => {
    const c = await ownedCollar(t, admin, owner);
    const asked = reader().answered;
    await post(c, 3);
    expect(await history(c.id)).toBe(3);
    expect(await backtest(c.id)).toBe(3);
    expect(reader().answered).toBe(asked + 2);
    // Acknowledged a moment ago, read at once on the other connection.
    await post(c, 1);
    expect(await history(c.id)).toBe(4);
    expect(await backtest(c.id)).toBe(4);
    expect(reader().answered).toBe(asked + 4);
  });

  it('goes on answering on the server’s connection once the thread has died, and says so once', async () => {
    const c = await ownedCollar(t, admin, owner);
    await post(c, 2);
    expect(await history(c.id)).toBe(2);
    const worker = (reader() as unknown as { worker: Worker }).worker;
    const gone = new Promise((resolve) => worker.once('exit', resolve));
    await worker.terminate();
    await gone;
    const asked = reader().answered;
    await post(c, 1);
    expect(await history(c.id)).toBe(3);
    expect(await backtest(c.id)).toBe(3);
    expect(reader().answered).toBe(asked);
    const told = t.logs().filter((l) => l.includes('reading thread failed'));
    expect(told).toHaveLength(1);
  });
});

describe.skipIf(usePostgres)('the reading thread itself', () => {
  const opened: DbHandle[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const handle of opened.splice(0)) await handle.close();
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  async function fresh() {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-reader-'));
    dirs.push(dataDir);
    const handle = await openDatabase({ dataDir });
    opened.push(handle);
    return { handle, dataDir, file: sqliteFile(dataDir) };
  }
  const query = (text: string, parameters: unknown[] = []) =>
    CompiledQuery.raw(text, parameters) as CompiledQuery<Record<string, unknown>>;
  // Long enough to be under way when the test acts: a count to five million in SQL.
  const slow = query(
    'with recursive n(x) as (select 1 union all select x + 1 from n where x < 5000000) select count(*) as c from n',
  );
  const workerOf = (r: SqliteReader) => (r as unknown as { worker: Worker }).worker;

  it('answers a read with the values bound as the server binds them', async () => {
    const { file } = await fresh();
    const reader = new SqliteReader(file);
    try {
      const rows = await reader.all(
        query('select ? + 1 as n, ? as s, ? as z', [41, 'dog', null]),
        () => Promise.reject(new Error('not the fallback')),
      );
      expect(rows).toEqual([{ n: 42, s: 'dog', z: null }]);
      expect(reader.answered).toBe(1);
    } finally {
      await reader.close();
    }
  });

  it('a read its connection cannot answer goes to the server’s connection, and so do all after it', async () => {
    const { file } = await fresh();
    const reader = new SqliteReader(file);
    const told = vi.fn();
    reader.onError = told;
    const fallback = vi.fn(async () => [{ from: 'server' }]);
    try {
      expect(await reader.all(query('select * from no_such_table'), fallback)).toEqual([
        { from: 'server' },
      ]);
      expect(await reader.all(query('select 1 as one'), fallback)).toEqual([{ from: 'server' }]);
      expect(fallback).toHaveBeenCalledTimes(2);
      expect(told).toHaveBeenCalledTimes(1);
    } finally {
      await reader.close();
    }
  });

  it('a read under way when the thread dies is answered on the server’s connection', async () => {
    const { file } = await fresh();
    const reader = new SqliteReader(file);
    reader.onError = () => {};
    try {
      const fallback = vi.fn(async () => [{ c: -1 }]);
      const answer = reader.all(slow, fallback);
      await new Promise((r) => setTimeout(r, 50));
      await workerOf(reader).terminate();
      expect(await answer).toEqual([{ c: -1 }]);
    } finally {
      await reader.close();
    }
  });

  it('closing waits for the reads under way, which are answered by the thread', async () => {
    const { file } = await fresh();
    const reader = new SqliteReader(file);
    const answer = reader.all(slow, () => Promise.reject(new Error('not the fallback')));
    await new Promise((r) => setTimeout(r, 50));
    await reader.close();
    expect(await answer).toEqual([{ c: 5_000_000 }]);
  });

  it('leaves no WAL behind a clean close once it has read: the writer closes last', async () => {
    const { handle, dataDir, file } = await fresh();
    await handle.db.schema.createTable('probe').addColumn('id', 'integer').execute();
    await handle.db
      .insertInto('probe' as never)
      .values({ id: 1 } as never)
      .execute();
    expect(
      await handle.reader!.all(query('select count(*) as n from probe'), async () => []),
    ).toEqual([{ n: 1 }]);
    expect(fs.existsSync(`${file}-wal`)).toBe(true);
    opened.splice(opened.indexOf(handle), 1);
    await handle.close();
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    expect(fs.existsSync(dataDir)).toBe(true);
  });
});
