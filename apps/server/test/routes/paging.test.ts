import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { expectError, insertUser, seedDog } from '../helpers/api.js';
import { createDog, ownedCollar, prePopulate } from '../helpers/devices.js';

/** DESIGN §4, RES-2: every list answers pages of at most 100 rows, with the total. */
let t: TestApp;
let admin: SeededUser;
let owner: SeededUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await seedUser(t, { role: 'admin' });
  owner = await seedUser(t);
  // Enough rows that every list has more than one page of 2.
  for (let i = 0; i < 3; i++) {
    await ownedCollar(t, admin, owner, `Pet ${i}`);
    await insertUser(t);
  }
  await prePopulate(t, admin, [{}, {}, {}]);
});
afterAll(() => t.close());

const LISTS = [
  { url: '/api/auth/users', key: 'users', as: () => admin },
  { url: '/api/dogs/all', key: 'dogs', as: () => admin },
  { url: '/api/devices/all', key: 'devices', as: () => admin },
  { url: '/api/admin/devices/unassigned', key: 'devices', as: () => admin },
  { url: '/api/devices', key: 'devices', as: () => owner },
  { url: '/api/dogs', key: 'dogs', as: () => owner },
] as const;

const get = (url: string, who: SeededUser) => t.app.inject({ url, headers: bearer(who.token) });

describe.each(LISTS)('GET $url', ({ url, key, as }) => {
  it('pages with limit and offset, and answers the total', async () => {
    const all = (await get(url, as())).json();
    const total = all.total as number;
    expect(total).toBeGreaterThanOrEqual(3);
    expect(all[key]).toHaveLength(total);
    const ids: string[] = [];
    for (let offset = 0; offset < total; offset += 2) {
      const page = (await get(`${url}?limit=2&offset=${offset}`, as())).json();
      expect(page.total).toBe(total);
      expect(page[key].length).toBe(Math.min(2, total - offset));
      ids.push(...page[key].map((r: { id: string }) => r.id));
    }
    // Every row once, in the same order as the whole list.
    expect(ids).toEqual(all[key].map((r: { id: string }) => r.id));
  });

  it.each(['limit=101', 'limit=100000', 'limit=0', 'limit=x', 'offset=-1', 'offset=1.5', 'page=2'])(
    'answers 400 for ?%s',
    async (query) => {
      expectError(await get(`${url}?${query}`, as()), 400);
    },
  );
});

describe('the lists page by the whole table, not by what one page holds', () => {
  it('counts admins and users with pets over every user', async () => {
    const res = (await get('/api/auth/users?limit=1', admin)).json();
    const all = (await get('/api/auth/users', admin)).json().users as Array<{
      role: string;
      dogs_count: number;
    }>;
    expect(res.users).toHaveLength(1);
    expect(res.total).toBe(all.length);
    expect(res.admin_count).toBe(all.filter((u) => u.role === 'admin').length);
    expect(res.active_count).toBe(all.filter((u) => u.dogs_count > 0).length);
  });

  it("lists one owner's pets for the admin with user_id", async () => {
    const other = await seedUser(t);
    await seedDog(t, other.id, { name: 'Solo' });
    await createDog(t, owner, 'Not theirs');
    const res = (await get(`/api/dogs/all?user_id=${other.id}`, admin)).json();
    expect(res).toMatchObject({ total: 1, dogs: [{ name: 'Solo', user_id: other.id }] });
  });
});
