import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, createTestApp, seedUser, TEST_PASSWORD, type TestApp } from '../helpers/app.js';
import { expectError } from '../helpers/api.js';
import { loadConfig } from '../../src/config/env.js';
import { COMMON_PASSWORD_MESSAGE } from '../../src/services/common-passwords.js';

const register = (t: TestApp, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/auth/register', payload });
const login = (t: TestApp, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload, headers });

describe('password storage and rules (shared app)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('AUTH-1: passwords are stored as argon2id at or above the floor', () => {
    it('stores a PHC argon2id string with m ≥ 19456, t ≥ 2, p = 1 and no other credential column', async () => {
      const password = 'a password to be hashed';
      const res = await register(t, { email: 'hashed@example.com', password, name: 'Hashed' });
      const row = await t.app.container.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', res.json().user.id)
        .executeTakeFirstOrThrow();
      const phc =
        /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/.exec(
          row.password_hash,
        );
      expect(phc, row.password_hash.slice(0, 30)).not.toBeNull();
      const [, m, tc, p] = phc!.map(Number);
      expect(m).toBeGreaterThanOrEqual(19456);
      expect(tc).toBeGreaterThanOrEqual(2);
      expect(p).toBe(1);
      expect(Object.keys(row).sort()).toEqual([
        'created_at',
        'email',
        'email_verified_at',
        'id',
        'name',
        'password_hash',
        'role',
        'temperature_unit',
        'time_zone',
        'updated_at',
        'weight_unit',
      ]);
      expect(Object.values(row).some((v) => typeof v === 'string' && v.includes(password))).toBe(
        false,
      );
    });
  });

  describe('AUTH-2: passwords of 8–128 characters of any kind, exactly as typed', () => {
    it('refuses 7 characters', async () => {
      expectError(
        await register(t, { email: 'short@example.com', password: '1234567', name: 'S' }),
        400,
        'password must be at least 8 characters',
      );
    });

    it('has no composition rules: eight lowercase letters are fine', async () => {
      expect(
        (await register(t, { email: 'simple@example.com', password: 'kdwpqmzt', name: 'S' }))
          .statusCode,
      ).toBe(201);
    });

    it.each([
      ['64 characters', 'ü漢€ß'.repeat(16)],
      ['128 unicode characters', 'Ωмир名🐕'.repeat(16) + 'ab'.repeat(8)],
    ])('registers and signs in with %s', async (_what, password) => {
      expect(password.length === 64 || password.length === 128).toBe(true);
      const email = `long-${password.length}@example.com`;
      expect((await register(t, { email, password, name: 'Long' })).statusCode).toBe(201);
      expect((await login(t, { email, password })).statusCode).toBe(200);
      expect((await login(t, { email, password: password.slice(0, -1) })).statusCode).toBe(401);
    });

    it('neither case-folds nor trims: Pass… and pass… and " pass…" are different passwords', async () => {
      const email = 'case@example.com';
      expect(
        (await register(t, { email, password: 'Password Seven', name: 'Case' })).statusCode,
      ).toBe(201);
      expect((await login(t, { email, password: 'password Seven' })).statusCode).toBe(401);
      expect((await login(t, { email, password: ' Password Seven' })).statusCode).toBe(401);
      expect((await login(t, { email, password: 'Password Seven' })).statusCode).toBe(200);
    });
  });

  describe('AUTH-3: the most common passwords are refused at sign-up', () => {
    it.each(['password', '12345678', 'PASSWORD', 'Password', 'qwertyuiop', 'iloveyou', 'abcdefgh'])(
      'refuses %s with 400 and one generic message, creating no account',
      async (password) => {
        const email = `common-${password.toLowerCase()}-${password.length}@example.com`;
        const res = await register(t, { email, password, name: 'Common' });
        expectError(res, 400, COMMON_PASSWORD_MESSAGE);
        const row = await t.app.container.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', email)
          .executeTakeFirst();
        expect(row).toBeUndefined();
      },
    );

    it('takes a password that is not on the list', async () => {
      expect(
        (
          await register(t, {
            email: 'uncommon@example.com',
            password: 'grey otter 4 lanterns',
            name: 'U',
          })
        ).statusCode,
      ).toBe(201);
    });

    it('refuses a common ADMIN_PASSWORD at start, naming the setting', () => {
      expect(() => loadConfig({ ADMIN_PASSWORD: 'password1' })).toThrow(
        /ADMIN_PASSWORD: is one of the most common passwords/,
      );
    });
  });

  describe('AUTH-7: no account enumeration through login', () => {
    it('answers an unknown e-mail and a wrong password with the same status, headers and body', async () => {
      const u = await seedUser(t);
      const wrong = await login(t, { email: u.email, password: 'definitely wrong' });
      const unknown = await login(t, {
        email: 'no-such-user@example.com',
        password: 'definitely wrong',
      });
      expect([wrong.statusCode, unknown.statusCode]).toEqual([401, 401]);
      expect(unknown.body).toBe(wrong.body);
      expect(wrong.json()).toEqual({ error: 'Invalid email or password' });
      expect(unknown.headers['content-type']).toBe(wrong.headers['content-type']);
      expect(unknown.headers['content-length']).toBe(wrong.headers['content-length']);
    });
  });
});

describe('AUTH-5: per-account lockout after 10 failed logins', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_MULTIPLIER: '1' } });
  });
  afterAll(() => t.close());

  it('refuses even the right password with 429 and Retry-After, from any X-Forwarded-For, until the 15-minute window ends', async () => {
    const u = await seedUser(t);
    for (let i = 0; i < 10; i++) {
      const res = await login(
        t,
        { email: u.email, password: `wrong ${i}` },
        { 'x-forwarded-for': `203.0.113.${i}` },
      );
      expect(res.statusCode).toBe(401);
    }
    const locked = await login(
      t,
      { email: u.email, password: TEST_PASSWORD },
      { 'x-forwarded-for': '198.51.100.7' },
    );
    expectError(locked, 429, 'Too many failed sign-in attempts. Please try again later.');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);

    // Another account is not affected.
    const bystander = await seedUser(t);
    expect(bystander.token).toEqual(expect.any(String));

    t.clock.advance(15 * 60 * 1000 + 1000);
    const after = await login(t, { email: u.email, password: TEST_PASSWORD });
    expect(after.statusCode).toBe(200);
  });

  it('counts an unknown e-mail the same way, so lockout does not reveal which accounts exist', async () => {
    for (let i = 0; i < 10; i++)
      await login(t, { email: 'ghost@example.com', password: `wrong ${i}` });
    expectError(
      await login(t, { email: 'ghost@example.com', password: 'x' }),
      429,
      'Too many failed sign-in attempts. Please try again later.',
    );
  });
});

describe('AUTH-5: the lock holds under concurrency and cannot lock an owner out from elsewhere', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_MULTIPLIER: '1' } });
  });
  afterAll(() => t.close());

  const from = (remoteAddress: string, payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', payload, remoteAddress });

  it('lets exactly 10 of 30 simultaneous wrong passwords reach the hash; the rest answer 429', async () => {
    const u = await seedUser(t);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        from('192.0.2.10', { email: u.email, password: `wrong ${i}` }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(10);
    expect(codes.filter((c) => c === 429)).toHaveLength(20);
  });

  it('a stranger who locked the account from their address does not lock out the owner elsewhere', async () => {
    const u = await seedUser(t);
    for (let i = 0; i < 10; i++)
      await from('198.51.100.66', { email: u.email, password: `guess ${i}` });
    expectError(
      await from('198.51.100.66', { email: u.email, password: TEST_PASSWORD }),
      429,
      'Too many failed sign-in attempts. Please try again later.',
    );
    const owner = await from('203.0.113.5', { email: u.email, password: TEST_PASSWORD });
    expect(owner.statusCode, owner.body).toBe(200);
    // The stranger's address stays locked: the owner's success clears only the owner's count.
    expect(
      (await from('198.51.100.66', { email: u.email, password: 'guess again' })).statusCode,
    ).toBe(429);
  });
});

describe('AUTH-6 / RES-6: per-IP login limit, before any password is checked', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_MULTIPLIER: '1' } });
  });
  afterAll(() => t.close());

  it('answers the 31st login within a minute with 429, rotating X-Forwarded-For or not, without reading the account', async () => {
    const u = await seedUser(t); // one login
    // 29 more attempts: every call counts, even one refused for its body (and no hashing is spent here).
    for (let i = 0; i < 29; i++) {
      const res = await login(
        t,
        { email: `nobody-${i}@example.com` },
        { 'x-forwarded-for': `10.0.${i}.1` },
      );
      expect(res.statusCode).toBe(400);
    }
    const lookups = vi.spyOn(t.app.container.repos.users, 'findByEmail');
    const res = await login(
      t,
      { email: u.email, password: TEST_PASSWORD },
      { 'x-forwarded-for': '192.0.2.99' },
    );
    expectError(res, 429, /^Too many requests\. Please try again in \d+ seconds\.$/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(lookups).not.toHaveBeenCalled();
    lookups.mockRestore();
  });

  it('keeps serving other routes for a signed-in user meanwhile', async () => {
    const token = (
      await t.app.container.auth.register({
        email: 'still-here@example.com',
        password: 'long enough pw',
        name: 'S',
      })
    ).token;
    expect(
      (await t.app.inject({ url: '/api/auth/profile', headers: bearer(token) })).statusCode,
    ).toBe(200);
  });
});

describe('RES-3: global and per-route rate limits answer 429 with Retry-After and { error }', () => {
  it('limits registrations to 10 a minute per IP, counting refused ones', async () => {
    const t = await createTestApp({ env: { RATE_LIMIT_MULTIPLIER: '1' } });
    try {
      for (let i = 0; i < 10; i++)
        expect((await register(t, { email: 'bad' })).statusCode).toBe(400);
      const res = await register(t, {
        email: 'ok@example.com',
        password: 'long enough pw',
        name: 'OK',
      });
      expectError(res, 429, /^Too many requests/);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.headers['cache-control']).toBe('no-store');
    } finally {
      await t.close();
    }
  });

  it('limits every route globally, also unauthenticated calls and unknown paths', async () => {
    // 0.01 × 1,200 = 12 requests a minute per IP.
    const t = await createTestApp({ env: { RATE_LIMIT_MULTIPLIER: '0.01' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++)
        statuses.push((await t.app.inject({ url: '/api/auth/profile' })).statusCode);
      expect(statuses.every((s) => s === 401)).toBe(true);
      const limited = await t.app.inject({ url: '/api/auth/profile' });
      expectError(limited, 429, /^Too many requests/);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expectError(
        await t.app.inject({ url: '/api/dogs', headers: { authorization: 'Bearer x.y.z' } }),
        429,
        /^Too many requests/,
      );
      expectError(await t.app.inject({ url: '/api/no-such-thing' }), 429, /^Too many requests/);
      // Health stays answerable for monitors.
      expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('AUTH-8: no default account on a fresh install', () => {
  let t: TestApp;
  beforeAll(async () => {
    // No ADMIN_PASSWORD, and ADMIN_EMAIL left at its default (admin@localhost).
    t = await createTestApp({
      env: { ADMIN_PASSWORD: '', ADMIN_EMAIL: undefined as unknown as string },
    });
  });
  afterAll(() => t.close());

  it.each([
    ['admin', 'admin'],
    ['admin@localhost', 'admin'],
    ['admin@localhost', 'password'],
    ['admin@localhost', 'admin@localhost'],
  ])('refuses %s / %s', async (email, password) => {
    expectError(await login(t, { email, password }), 401, 'Invalid email or password');
  });

  it('writes the generated password alone (with a newline) to a 0600 file; it signs in; the log never contains it', async () => {
    const file = path.join(t.dataDir, 'initial-admin-password');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const content = fs.readFileSync(file, 'utf8');
    expect(content).toMatch(/^\S{16,}\n$/);
    const password = content.trimEnd();
    const res = await login(t, { email: 'admin@localhost', password });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.role).toBe('admin');
    const logs = t.logs().join('\n');
    expect(logs).toContain('initial-admin-password');
    expect(logs).not.toContain(password);
  });
});
