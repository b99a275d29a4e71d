import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';

let t: TestApp;
let owner: SeededUser;
beforeAll(async () => {
  t = await createTestApp();
  owner = await seedUser(t);
});
afterAll(() => t.close());

describe('a path written with a trailing or a doubled slash', () => {
  it('answers as the path without it, on every route alike', async () => {
    for (const [plain, written] of [
      ['/api/alerts', '/api/alerts/'],
      ['/api/auth/profile', '/api/auth/profile/'],
      ['/api/notifications/unread-count', '/api/notifications/unread-count/'],
      ['/api/dogs', '/api/dogs/'],
      ['/api/dogs', '/api//dogs'],
    ]) {
      const a = await t.app.inject({ url: plain, headers: bearer(owner.token) });
      const b = await t.app.inject({ url: written, headers: bearer(owner.token) });
      expect([written, b.statusCode, b.json()]).toEqual([written, 200, a.json()]);
    }
  });

  it('is answered as the API, never stored by a cache, however many slashes lead it', async () => {
    for (const url of ['/api/dogs', '//api/dogs', '///api//dogs/']) {
      const res = await t.app.inject({ url, headers: bearer(owner.token) });
      expect([url, res.statusCode, res.headers['cache-control']]).toEqual([url, 200, 'no-store']);
      expect(res.json()).toHaveProperty('dogs');
    }
    const unknown = await t.app.inject({ url: '//api/nothing-here' });
    expect([unknown.statusCode, unknown.headers['cache-control']]).toEqual([404, 'no-store']);
    // The query is left as it is.
    const query = await t.app.inject({
      url: '//api/dogs?limit=1&x=//y',
      headers: bearer(owner.token),
    });
    expect(query.statusCode).toBe(400);
    expect(query.json().error).toMatch(/x/);
  });

  it('keeps the route’s own rules: a user is refused an admin list, a stranger is asked to sign in', async () => {
    const admin = await t.app.inject({ url: '/api/dogs/all/', headers: bearer(owner.token) });
    expect(admin.statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/alerts/' })).statusCode).toBe(401);
  });

  it('still answers 404 with the API’s { error } for a path that is no route', async () => {
    const res = await t.app.inject({ url: '/api/nothing-here/', headers: bearer(owner.token) });
    expect([res.statusCode, res.json()]).toEqual([404, { error: expect.any(String) }]);
  });
});
