import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodeJwt } from 'jose';
import {
  bearer,
  createTestApp,
  seedUser,
  TEST_PASSWORD,
  type SeededUser,
  type TestApp,
} from '../helpers/app.js';
import { expectError, seedDog } from '../helpers/api.js';
import { helmetHeaders } from '../../src/plugins/security-headers.js';

let t: TestApp;
let user: SeededUser;
let other: SeededUser;
let admin: SeededUser;
beforeAll(async () => {
  t = await createTestApp();
  [user, other, admin] = await Promise.all([
    seedUser(t),
    seedUser(t, { email: 'other-private@example.com' }),
    seedUser(t, { role: 'admin' }),
  ]);
  await seedDog(t, user.id);
  await seedDog(t, other.id);
});
afterAll(() => t.close());

/** Every user-facing GET plus the writes that answer data. */
const userCalls = (token: string) => [
  { url: '/api/auth/profile', headers: bearer(token) },
  { url: '/api/dogs', headers: bearer(token) },
  { url: '/api/notifications/preferences', headers: bearer(token) },
  {
    method: 'POST' as const,
    url: '/api/dogs',
    headers: bearer(token),
    payload: { name: 'Exposure' },
  },
  {
    method: 'POST' as const,
    url: '/api/auth/login',
    payload: { email: user.email, password: TEST_PASSWORD },
  },
  { url: '/api/auth/users', headers: bearer(token) },
  { url: '/api/dogs/all', headers: bearer(token) },
  { url: '/api/health' },
];

describe('AC-6: no answer exposes secrets or other users', () => {
  it("never contains password_hash, a session id, or another user's e-mail for a user", async () => {
    const sid = decodeJwt(user.token).sid as string;
    for (const call of userCalls(user.token)) {
      const res = await t.app.inject(call);
      expect(res.body).not.toMatch(/password_hash|\$argon2/);
      expect(res.body).not.toContain(sid);
      expect(res.body).not.toContain(other.email);
      expect(res.body).not.toContain(admin.email);
    }
  });

  it('gives admins e-mails but still no password hashes or session ids', async () => {
    const sid = decodeJwt(admin.token).sid as string;
    for (const url of ['/api/auth/users', '/api/dogs/all']) {
      const res = await t.app.inject({ url, headers: bearer(admin.token) });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain(other.email);
      expect(res.body).not.toMatch(/password_hash|\$argon2|session/);
      expect(res.body).not.toContain(sid);
    }
  });
});

describe('AC-7: role changes are admin-only and never leave the system without an admin', () => {
  it('does not let a user elevate themselves', async () => {
    expectError(
      await t.app.inject({
        method: 'PUT',
        url: `/api/auth/users/${user.id}/role`,
        headers: bearer(user.token),
        payload: { role: 'admin' },
      }),
      403,
      'Admin access required',
    );
    expect((await t.app.container.repos.users.findById(user.id))?.role).toBe('user');
  });

  it('lets exactly one of two admins demoting each other at the same time succeed', async () => {
    const solo = await createTestApp();
    try {
      const a = await seedUser(solo, { role: 'admin' });
      const b = await seedUser(solo, { role: 'admin' });
      // Leave only a and b as admins.
      const first = await solo.app.container.repos.users.findByEmail('admin@example.com');
      expect(
        (
          await solo.app.inject({
            method: 'PUT',
            url: `/api/auth/users/${first!.id}/role`,
            headers: bearer(a.token),
            payload: { role: 'user' },
          })
        ).statusCode,
      ).toBe(200);

      const [ab, ba] = await Promise.all([
        solo.app.inject({
          method: 'PUT',
          url: `/api/auth/users/${b.id}/role`,
          headers: bearer(a.token),
          payload: { role: 'user' },
        }),
        solo.app.inject({
          method: 'PUT',
          url: `/api/auth/users/${a.id}/role`,
          headers: bearer(b.token),
          payload: { role: 'user' },
        }),
      ]);
      expect([ab.statusCode, ba.statusCode].filter((s) => s === 200)).toHaveLength(1);
      // The loser is refused either as no longer an admin (403) or as the last admin's demoter (409).
      const loser = ab.statusCode === 200 ? ba : ab;
      expect([
        { status: 403, body: { error: 'Admin access required' } },
        { status: 409, body: { error: 'The last admin cannot be made a user' } },
      ]).toContainEqual({ status: loser.statusCode, body: loser.json() });
      const admins = await solo.app.container.db
        .selectFrom('users')
        .select('id')
        .where('role', '=', 'admin')
        .execute();
      expect(admins).toHaveLength(1);
    } finally {
      await solo.close();
    }
  });
});

describe('ERR-2: a failure inside the session check never yields data', () => {
  it('answers 500 { error } with nothing else when the session lookup throws', async () => {
    const spy = vi
      .spyOn(t.app.container.repos.sessions, 'findActiveUser')
      .mockRejectedValue(
        new Error('SELECT * FROM sessions -- connection reset at /srv/app/db.ts:12'),
      );
    try {
      for (const url of ['/api/dogs', '/api/auth/users', '/api/auth/profile']) {
        const res = await t.app.inject({ url, headers: bearer(admin.token) });
        expectError(res, 500, 'Something went wrong on our side. Please try again.');
      }
    } finally {
      spy.mockRestore();
    }
    expect((await t.app.inject({ url: '/api/dogs', headers: bearer(user.token) })).statusCode).toBe(
      200,
    );
  });
});

describe('LOG-2 / SESS-8: tokens, passwords and Authorization headers never reach the log', () => {
  it('logs none of them after sign-ins, authenticated calls, failures and a token in the URL', async () => {
    const canaryPassword = 'canary-password-5f3a9e';
    const reg = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: 'canary@example.com', password: canaryPassword, name: 'Canary' },
    });
    const token = reg.json().token as string;
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'canary@example.com', password: canaryPassword },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'canary@example.com', password: `${canaryPassword}-wrong` },
    });
    await t.app.inject({ url: '/api/auth/profile', headers: bearer(token) });
    await t.app.inject({ url: `/api/auth/profile?token=${token}` });
    await t.app.inject({ url: '/api/auth/users', headers: bearer(token) });
    await t.app.container.outboxWorker.drain();
    const confirmPath = /\/api\/auth\/confirm\/[A-Za-z0-9_-]+/.exec(
      t.mail.find((m) => m.to === 'canary@example.com')!.text,
    )![0];
    await t.app.inject({ url: confirmPath });

    const logs = t.logs().join('\n');
    expect(logs).toContain('/api/auth/profile');
    for (const secret of [
      token,
      token.split('.')[2]!,
      canaryPassword,
      user.token,
      admin.token,
      confirmPath.split('/').pop()!,
    ]) {
      expect(logs).not.toContain(secret);
    }
    expect(logs).not.toMatch(/"authorization"\s*:\s*"Bearer/i);
  });
});

describe('LOG-3: user text cannot forge log lines', () => {
  it('keeps a name or e-mail with \\n{"level":50} inside one JSON log line', async () => {
    const injected = 'x\n{"level":50,"msg":"forged"}';
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: injected, password: 'x' },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: 'log3@example.com', password: 'long enough pw', name: injected },
    });
    await t.app.inject({ url: `/api/no-such/${encodeURIComponent(injected)}` });
    for (const line of t.logs()) {
      const entry = JSON.parse(line) as { level: number; msg?: string };
      expect(entry.msg).not.toBe('forged');
    }
    expect(t.logs().some((l) => l.includes('forged'))).toBe(true);
  });
});

describe('DATA-1: API answers are never cached', () => {
  it('sends Cache-Control: no-store on successes, failures and redirects', async () => {
    for (const call of [
      ...userCalls(user.token),
      { url: '/api/auth/confirm/nothing' },
      { url: '/api/nope' },
      { url: '/api/dogs' },
    ]) {
      expect((await t.app.inject(call)).headers['cache-control'], call.url).toBe('no-store');
    }
  });
});

describe('WEB-1: security headers on API answers', () => {
  it('sends a strict CSP, nosniff and a Referrer-Policy, also on refusals', async () => {
    for (const call of [
      { url: '/api/health' },
      { url: '/api/auth/profile' },
      { url: '/api/dogs', headers: bearer(user.token) },
    ]) {
      const res = await t.app.inject(call);
      const csp = String(res.headers['content-security-policy']);
      for (const directive of [
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        "script-src 'self'",
      ]) {
        expect(csp).toContain(directive);
      }
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('sends them on every kind of refusal too: unknown address, bad address, body too large, rate limit', async () => {
    const calls = [
      { url: '/api/nope' },
      { url: '/nope.js' },
      // Refused by the router before any hook runs.
      { url: '/api/%zz' },
      {
        method: 'POST' as const,
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'x'.repeat(2_000_000) }),
      },
    ];
    for (const call of calls) {
      const res = await t.app.inject(call);
      expect(res.statusCode, call.url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, call.url).toBeLessThan(500);
      expect(res.headers['x-content-type-options'], call.url).toBe('nosniff');
      expect(String(res.headers['content-security-policy']), call.url).toContain(
        "frame-ancestors 'none'",
      );
      expect(res.headers['x-powered-by'], call.url).toBeUndefined();
    }
  });

  it('refuses a policy that would have to change per request (a nonce function)', () => {
    expect(() =>
      helmetHeaders({
        contentSecurityPolicy: { directives: { scriptSrc: ["'self'", () => "'nonce-x'"] } },
      }),
    ).toThrow(/cannot be a function/);
  });

  it('sends HSTS (a year, subdomains) where the app is reached over https, and not over plain http', async () => {
    expect(t.config.publicUrl.startsWith('http://')).toBe(true);
    expect(
      (await t.app.inject({ url: '/api/health' })).headers['strict-transport-security'],
    ).toBeUndefined();
    const tls = await createTestApp({ env: { PUBLIC_URL: 'https://pawguard.example' } });
    try {
      const res = await tls.app.inject({ url: '/api/health' });
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await tls.close();
    }
  });
});

describe('WEB-2: no cross-origin access', () => {
  it('does not answer a foreign Origin with Access-Control-Allow-Origin, nor a preflight', async () => {
    const res = await t.app.inject({
      url: '/api/dogs',
      headers: { ...bearer(user.token), origin: 'https://evil.test' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/dogs',
      headers: { origin: 'https://evil.test', 'access-control-request-method': 'DELETE' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
  });
});
