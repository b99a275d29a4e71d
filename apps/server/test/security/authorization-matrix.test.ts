import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { leaksIn } from '../helpers/api.js';
import matrix from './authorization-matrix.json' with { type: 'json' };
import { routeSamples, type Principal } from '../helpers/route-samples.js';

/**
 * AC-1 / AC-2: the authorization matrix. authorization-matrix.json lists every /api route with
 * its policy and the status each principal gets; one test per cell. A route the server
 * registers that the matrix does not list fails here, so every feature adds its rows.
 */
type Row = { auth: string } & Record<Principal, number>;
const routes = matrix.routes as Record<string, Row>;
const PRINCIPALS = matrix.principals as Principal[];

let t: TestApp;
let user: SeededUser;
let admin: SeededUser;
beforeAll(async () => {
  t = await createTestApp();
  [user, admin] = await Promise.all([seedUser(t), seedUser(t, { role: 'admin' })]);
});
afterAll(() => t.close());

const who = (p: Principal) => (p === 'user' ? user : p === 'admin' ? admin : undefined);
/** A request each principal may legitimately make on the route; the matrix says what it answers. */
const samples = routeSamples({ t: () => t, who, user: () => user, admin: () => admin });

/** The routes as the server registered them; HEAD mirrors GET and is checked separately. */
const registered = () => t.app.routePolicies.filter((r) => r.method !== 'HEAD');
const keyOf = (r: { method: string; url: string }) => `${r.method} ${r.url}`;

describe('AC-1: deny by default — every /api route declares a policy and is in the matrix', () => {
  it('every registered /api route has config.auth in {public, user, admin, device, device_or_user}', () => {
    const all = t.app.routePolicies;
    expect(all.length).toBeGreaterThan(15);
    const bad = all
      .filter((r) => !['public', 'user', 'admin', 'device', 'device_or_user'].includes(r.auth))
      .map(keyOf);
    expect(bad).toEqual([]);
  });

  it('every registered /api route is listed in authorization-matrix.json', () => {
    const unknown = registered()
      .map(keyOf)
      .filter((k) => !(k in routes));
    expect(
      unknown,
      `These routes are not in test/security/authorization-matrix.json; add a row (and a sample request) for each:\n  ${unknown.join('\n  ')}`,
    ).toEqual([]);
  });

  it('every matrix row is a registered route, with the policy the server enforces', () => {
    const byKey = new Map(registered().map((r) => [keyOf(r), r.auth]));
    const stale = Object.keys(routes).filter((k) => !byKey.has(k));
    expect(stale, 'matrix rows with no such route').toEqual([]);
    const mismatched = Object.entries(routes)
      .filter(([k, row]) => byKey.has(k) && byKey.get(k) !== row.auth)
      .map(([k, row]) => `${k}: matrix says ${row.auth}, server has ${byKey.get(k)}`);
    expect(mismatched).toEqual([]);
  });

  it('every HEAD route carries the same policy as its GET', () => {
    const gets = new Map(
      registered()
        .filter((r) => r.method === 'GET')
        .map((r) => [r.url.replace(/\/$/, ''), r.auth]),
    );
    const heads = t.app.routePolicies.filter((r) => r.method === 'HEAD');
    const differing = heads.filter((h) => gets.get(h.url.replace(/\/$/, '')) !== h.auth).map(keyOf);
    expect(differing).toEqual([]);
  });

  it('refuses to start when a route declares no policy', async () => {
    const Fastify = (await import('fastify')).default;
    const { registerAuth } = await import('../../src/plugins/auth.js');
    const bare = Fastify();
    registerAuth(bare, { auth: t.app.container.auth });
    expect(() => bare.get('/api/forgotten', async () => ({ secret: true }))).toThrow(
      'Route GET /api/forgotten declares no auth policy (config.auth)',
    );
    await bare.close();
  });
});

describe('AC-2: the matrix, one test per route and principal', () => {
  for (const [route, row] of Object.entries(routes)) {
    for (const principal of PRINCIPALS) {
      it(`${route} as ${principal} → ${row[principal]}`, async () => {
        const sample = samples[route];
        expect(
          sample,
          `no sample request for ${route} in authorization-matrix.test.ts`,
        ).toBeDefined();
        const opts = await sample!(principal);
        const p = who(principal);
        const res = await t.app.inject({
          ...opts,
          headers: { ...(p && !opts.headers ? bearer(p.token) : {}), ...(opts.headers as object) },
        });
        expect(res.statusCode, res.body.slice(0, 300)).toBe(row[principal]);
        if (res.statusCode >= 400) expect(Object.keys(res.json())).toEqual(['error']);
        // DATA-1 and ERR-1 on every answer of the matrix.
        expect(res.headers['cache-control']).toBe('no-store');
        if (String(res.headers['content-type']).startsWith('application/json'))
          expect(leaksIn(res.body)).toEqual([]);
      });
    }
  }

  it('HEAD on a user route without a token is refused like GET', async () => {
    expect((await t.app.inject({ method: 'HEAD', url: '/api/auth/profile' })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'HEAD', url: '/api/auth/users', headers: bearer(user.token) }))
        .statusCode,
    ).toBe(403);
  });
});

describe('IN-1: every /api route with a body or path parameters validates them with a schema', () => {
  it('every POST, PUT and PATCH route has a body schema', () => {
    const missing = t.app.routePolicies
      .filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && !r.validates.includes('body'))
      .map(keyOf);
    expect(missing).toEqual([]);
  });

  it('every route with a path parameter has a params schema', () => {
    const missing = t.app.routePolicies
      .filter(
        (r) =>
          !r.url.startsWith('/api/docs') && /:\w/.test(r.url) && !r.validates.includes('params'),
      )
      .map(keyOf);
    expect(missing).toEqual([]);
  });
});
