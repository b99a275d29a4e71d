import net from 'node:net';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collapseSlashes } from '../../src/app.js';
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

describe('collapseSlashes', () => {
  it('makes repeated slashes of the path one, and leaves the query and an absolute target alone', () => {
    expect(collapseSlashes('//api//dogs/')).toBe('/api/dogs/');
    expect(collapseSlashes('/api/dogs')).toBe('/api/dogs');
    expect(collapseSlashes('//a?x=//y')).toBe('/a?x=//y');
    expect(collapseSlashes('/a?next=http://b//c')).toBe('/a?next=http://b//c');
    expect(collapseSlashes('http://localhost:4300/api//health')).toBe(
      'http://localhost:4300/api//health',
    );
  });
});

describe('a request target in absolute form (RFC 9112 §3.2.2)', () => {
  it('reaches its route as the path alone does, over a real connection', async () => {
    const s = await createTestApp();
    try {
      const { port } = new URL(await s.app.listen({ port: 0, host: '127.0.0.1' }));
      const socket = net.connect(Number(port), '127.0.0.1');
      await once(socket, 'connect');
      socket.write(
        `GET http://127.0.0.1:${port}/api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
      );
      let answer = '';
      for await (const chunk of socket) answer += String(chunk);
      expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
      expect(answer).toContain('"status":"ok"');
    } finally {
      await s.close();
    }
  });
});
