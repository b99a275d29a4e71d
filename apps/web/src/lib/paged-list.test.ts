import { describe, expect, it } from 'vitest';
import { fetchAllPages, pagePath } from './paged-list';

describe('paged lists', () => {
  it('asks for the first page at the bare path and later ones by offset', () => {
    expect(pagePath('/dogs', 0)).toBe('/dogs');
    expect(pagePath('/dogs', 100)).toBe('/dogs?offset=100');
    expect(pagePath('/dogs/all?user_id=u', 100)).toBe('/dogs/all?user_id=u&offset=100');
  });

  it('reads every page of a list until the total is in', async () => {
    const all = Array.from({ length: 250 }, (_, i) => i);
    const asked: number[] = [];
    const rows = await fetchAllPages(async (offset) => {
      asked.push(offset);
      return { rows: all.slice(offset, offset + 100), total: all.length };
    });
    expect(rows).toEqual(all);
    expect(asked).toEqual([0, 100, 200]);
  });

  it('stops on an empty page even if the total said more (rows deleted meanwhile)', async () => {
    const rows = await fetchAllPages(async (offset) => ({
      rows: offset === 0 ? [1, 2] : [],
      total: 5,
    }));
    expect(rows).toEqual([1, 2]);
  });
});
