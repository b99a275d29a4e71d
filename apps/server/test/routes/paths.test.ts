import net from 'node:net';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { originForm } from '../../src/app.js';
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

describe('originForm', () => {
  it('makes repeated slashes of the path one, an absolute target its path, and leaves the query', () => {
    expect(originForm('//api//dogs/')).toBe('/api/dogs/');
    expect(originForm('/api/dogs')).toBe('/api/dogs');
    expect(originForm('//a?x=//y')).toBe('/a?x=//y');
    expect(originForm('/a?next=http://b//c')).toBe('/a?next=http://b//c');
    expect(originForm('http://localhost:4300/api//health')).toBe('/api/health');
    expect(originForm('HTTPS://host//my-pets?x=//y')).toBe('/my-pets?x=//y');
    expect(originForm('http://host')).toBe('/');
    expect(originForm('http://host?x=1')).toBe('/?x=1');
    expect(originForm('*')).toBe('*');
  });

  it('hands the query to the route as it came', async () => {
    const res = await t.app.inject({
      url: '//api/dogs?limit=1&a//b=1',
      headers: bearer(owner.token),
    });
    expect([res.statusCode, res.json()]).toEqual([400, { error: 'Unknown field: a//b' }]);
  });
});

describe('a request target in absolute form (RFC 9112 §3.2.2)', () => {
  it('is answered as its path is, headers included, over a real connection', async () => {
    const s = await createTestApp();
    try {
      const { port } = new URL(await s.app.listen({ port: 0, host: '127.0.0.1' }));
      const user = await seedUser(s);
      const ask = async (target: string) => {
        const socket = net.connect(Number(port), '127.0.0.1');
        await once(socket, 'connect');
        socket.write(
          `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${user.token}\r\nConnection: close\r\n\r\n`,
        );
        let answer = '';
        for await (const chunk of socket) answer += String(chunk);
        const [head = '', body = ''] = answer.split('\r\n\r\n');
        return { status: head.split('\r\n')[0], head: head.toLowerCase(), body };
      };
      const profile = await ask(`http://127.0.0.1:${port}/api/auth/profile`);
      expect(profile.status).toBe('HTTP/1.1 200 OK');
      expect(profile.head).toContain('cache-control: no-store');
      expect(profile.body).toContain(user.id);
      const doubled = await ask(`http://127.0.0.1:${port}//api//health`);
      expect(doubled.status).toBe('HTTP/1.1 200 OK');
    } finally {
      await s.close();
    }
  });
});
