import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkSizes, CompiledQueries } from '../../src/db/compiled-queries.js';
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

describe('CompiledQueries', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('runs a shape compiled once with each call’s own values', async () => {
    const a = await seedUser(t, { email: 'compiled-a@example.com', name: 'Ann' });
    const b = await seedUser(t, { email: 'compiled-b@example.com', name: 'Bob' });
    const db = t.dbHandle.db;
    const queries = new CompiledQueries();
    const rename = (id: string, name: string) =>
      queries.run(
        db,
        'rename',
        () => db.updateTable('users').set({ name }).where('id', '=', id),
        [name, id],
      );
    await rename(a.id, 'Annie');
    // The same shape, other values: the second call must not reuse the first one's.
    await rename(b.id, 'Bobby');
    const names = await db
      .selectFrom('users')
      .select(['id', 'name'])
      .where('id', 'in', [a.id, b.id])
      .execute();
    expect(Object.fromEntries(names.map((r) => [r.id, r.name]))).toEqual({
      [a.id]: 'Annie',
      [b.id]: 'Bobby',
    });
  });

  it('refuses a shape whose values are given in another order than the query binds them', () => {
    const db = t.dbHandle.db;
    const queries = new CompiledQueries();
    expect(() =>
      queries.run(
        db,
        'swapped',
        () => db.updateTable('users').set({ name: 'x' }).where('id', '=', 'some-id'),
        ['some-id', 'x'],
      ),
    ).toThrow(/another order/);
  });
});
