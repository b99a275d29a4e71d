import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkSizes, CompiledQueries, inListChunks } from '../../src/db/compiled-queries.js';
import { createTestApp, seedUser, type TestApp } from '../helpers/app.js';

describe('chunkSizes', () => {
  it('cuts any count into powers of two up to 256, largest first, adding up to it', () => {
    expect(chunkSizes(0)).toEqual([]);
    expect(chunkSizes(1)).toEqual([1]);
    expect(chunkSizes(100)).toEqual([64, 32, 4]);
    expect(chunkSizes(256)).toEqual([256]);
    expect(chunkSizes(2000)).toEqual([256, 256, 256, 256, 256, 256, 256, 128, 64, 16]);
    for (let n = 0; n <= 1100; n++) {
      const sizes = chunkSizes(n);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(n);
      expect(new Set(sizes.map((s) => Math.log2(s) % 1)).size).toBeLessThanOrEqual(1);
      expect(Math.max(0, ...sizes)).toBeLessThanOrEqual(256);
    }
  });
});

describe('inListChunks', () => {
  it('cuts an id list into chunks of 256 with the last padded to a power of two by its last id', () => {
    expect(inListChunks([])).toEqual([]);
    expect(inListChunks(['a'])).toEqual([['a']]);
    expect(inListChunks(['a', 'b', 'c'])).toEqual([['a', 'b', 'c', 'c']]);
    const ids = Array.from({ length: 300 }, (_, i) => `id-${String(i).padStart(3, '0')}`);
    const chunks = inListChunks(ids);
    expect(chunks.map((c) => c.length)).toEqual([256, 64]);
    // Every id once, in order, then the last one repeated.
    expect([...new Set(chunks.flat())]).toEqual(ids);
    expect(chunks[1]!.slice(44)).toEqual(Array(20).fill('id-299'));
  });
});

describe('CompiledQueries', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const rename = (queries: CompiledQueries, id: string, name: string) => {
    const db = t.dbHandle.db;
    return queries.run(
      db,
      'rename',
      (v) =>
        db
          .updateTable('users')
          .set({ name: v[0] as string })
          .where('id', '=', v[1] as string),
      [name, id],
    );
  };
  const namesOf = async (ids: string[]) =>
    Object.fromEntries(
      (
        await t.dbHandle.db
          .selectFrom('users')
          .select(['id', 'name'])
          .where('id', 'in', ids)
          .execute()
      ).map((r) => [r.id, r.name]),
    );

  it('runs a shape compiled once with each call’s own values', async () => {
    const a = await seedUser(t, { email: 'compiled-a@example.com', name: 'Ann' });
    const b = await seedUser(t, { email: 'compiled-b@example.com', name: 'Bob' });
    const queries = new CompiledQueries();
    await rename(queries, a.id, 'Annie');
    // The same shape, other values: the second call must not reuse the first one's.
    await rename(queries, b.id, 'Bobby');
    expect(await namesOf([a.id, b.id])).toEqual({ [a.id]: 'Annie', [b.id]: 'Bobby' });
  });

  it('refuses a builder that binds in another order, even when the first call’s values are equal', () => {
    const db = t.dbHandle.db;
    const queries = new CompiledQueries();
    const swapped = (v: readonly unknown[]) =>
      db
        .updateTable('users')
        .set({ name: v[1] as string })
        .where('id', '=', v[0] as string);
    // Both values the same: comparing values could not tell the order; placeholders can.
    expect(() => queries.run(db, 'swapped', swapped, ['same', 'same'])).toThrow(/another order/);
  });
});
