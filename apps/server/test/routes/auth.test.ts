import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, login, seedUser, type TestApp } from '../helpers/app.js';
import { expectError } from '../helpers/api.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let n = 0;
const freshEmail = () => `person-${++n}-${Date.now()}@example.com`;
const register = (payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/auth/register', payload: payload as object });
const postLogin = (payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: payload as object });
const valid = () => ({
  email: freshEmail(),
  password: 'a long enough password',
  name: 'Dana Owner',
});

describe('POST /api/auth/register', () => {
  it('creates a user account and answers 201 with a token and the user', async () => {
    const input = valid();
    const res = await register(input);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['token', 'user']);
    expect(body.user).toEqual({
      id: expect.any(String),
      name: 'Dana Owner',
      email: input.email,
      role: 'user',
      time_zone: null,
      temperature_unit: null,
      weight_unit: null,
      created_at: expect.any(String),
    });
    const profile = await t.app.inject({ url: '/api/auth/profile', headers: bearer(body.token) });
    expect(profile.json().user.id).toBe(body.user.id);
  });

  it('stores the e-mail in lower case, so the same address in capitals is a duplicate', async () => {
    const input = { ...valid(), email: 'Mixed.Case@Example.com' };
    const res = await register(input);
    expect(res.json().user.email).toBe('mixed.case@example.com');
    expectError(
      await register({ ...input, email: 'MIXED.case@example.COM' }),
      409,
      'User with this email already exists',
    );
  });

  it('refuses an e-mail that is already registered with 409', async () => {
    const input = valid();
    expect((await register(input)).statusCode).toBe(201);
    expectError(
      await register({ ...input, name: 'Someone Else' }),
      409,
      'User with this email already exists',
    );
  });

  it('queues a confirmation mail whose link confirms the address once', async () => {
    const input = valid();
    const res = await register(input);
    const userId = res.json().user.id as string;
    const queued = await t.app.container.db
      .selectFrom('outbox')
      .selectAll()
      .where('idempotency_key', '=', `confirm-${userId}`)
      .executeTakeFirst();
    expect(queued).toMatchObject({ to_address: input.email, status: 'pending' });

    await t.app.container.outboxWorker.drain();
    const mail = t.mail.find((m) => m.to === input.email);
    expect(mail?.subject).toBe('Confirm your PawGuard account');
    const link = /https?:\/\/\S+\/api\/auth\/confirm\/[A-Za-z0-9_-]+/.exec(mail!.text)![0];
    const url = new URL(link).pathname;

    const first = await t.app.inject({ url });
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe('/?confirmed=1');
    const row = await t.app.container.repos.users.findById(userId);
    expect(row?.email_verified_at).toEqual(expect.any(String));

    const second = await t.app.inject({ url });
    expect(second.statusCode).toBe(303);
    expect(second.headers.location).toBe('/?confirmed=0');
  });

  it('redirects an unknown or expired confirmation link to /?confirmed=0', async () => {
    const unknown = await t.app.inject({ url: '/api/auth/confirm/not-a-real-token' });
    expect(unknown.headers.location).toBe('/?confirmed=0');

    const input = valid();
    await register(input);
    await t.app.container.outboxWorker.drain();
    const link = /\/api\/auth\/confirm\/[A-Za-z0-9_-]+/.exec(
      t.mail.find((m) => m.to === input.email)!.text,
    )![0];
    t.clock.advance(8 * 24 * 60 * 60 * 1000);
    try {
      const res = await t.app.inject({ url: link });
      expect(res.headers.location).toBe('/?confirmed=0');
    } finally {
      t.clock.advance(-8 * 24 * 60 * 60 * 1000);
    }
  });

  describe('answers 400 with a clear error for bad input', () => {
    const cases: [string, unknown, string][] = [
      [
        'a missing name',
        { email: 'a@example.com', password: 'long enough pw' },
        'name is required',
      ],
      ['a missing e-mail', { name: 'A', password: 'long enough pw' }, 'email is required'],
      ['a missing password', { name: 'A', email: 'a@example.com' }, 'password is required'],
      [
        'a blank name',
        { name: '   ', email: 'a@example.com', password: 'long enough pw' },
        'name is required',
      ],
      [
        'a password of the wrong type',
        { name: 'A', email: 'a@example.com', password: 12345678 },
        'password must be text',
      ],
      [
        'a name of the wrong type',
        { name: ['A'], email: 'a@example.com', password: 'long enough pw' },
        'name must be text',
      ],
      [
        'an unknown field such as role',
        { name: 'A', email: 'a@example.com', password: 'long enough pw', role: 'admin' },
        'Unknown field: role',
      ],
      [
        'several unknown fields',
        { name: 'A', email: 'a@example.com', password: 'long enough pw', role: 'admin', id: 'x' },
        'Unknown fields: role, id',
      ],
      [
        'an over-long name',
        { name: 'n'.repeat(101), email: 'a@example.com', password: 'long enough pw' },
        'name must be at most 100 characters',
      ],
      [
        'an over-long e-mail',
        { name: 'A', email: `${'a'.repeat(250)}@example.com`, password: 'long enough pw' },
        'email must be at most 254 characters',
      ],
      [
        'a malformed e-mail',
        { name: 'A', email: 'not-an-email', password: 'long enough pw' },
        'email must be a valid e-mail address',
      ],
      [
        'a short password',
        { name: 'A', email: 'a@example.com', password: '1234567' },
        'password must be at least 8 characters',
      ],
      [
        'an over-long password',
        { name: 'A', email: 'a@example.com', password: 'p'.repeat(129) },
        'password must be at most 128 characters',
      ],
      [
        'a password of spaces alone (the sign-in form takes it for empty)',
        { name: 'A', email: 'a@example.com', password: ' '.repeat(9) },
        'password must not be only spaces',
      ],
      ['a JSON array', [1, 2], 'Request body must be a JSON object'],
    ];
    it.each(cases)('%s', async (_what, payload, message) => {
      expectError(await register(payload), 400, message);
    });

    it('malformed JSON', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        headers: { 'content-type': 'application/json' },
        body: '{"email": "a@example.com", ',
      });
      expectError(res, 400, 'Request body is not valid JSON');
    });

    it('an empty JSON body (Content-Type json, no body)', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        headers: { 'content-type': 'application/json' },
      });
      expectError(res, 400, 'Request body must not be empty');
    });

    it('no body at all', async () => {
      expectError(
        await t.app.inject({ method: 'POST', url: '/api/auth/register' }),
        400,
        'Request body must be a JSON object',
      );
    });
  });
});

describe('POST /api/auth/login', () => {
  it('answers 200 with a token and the user for the right password', async () => {
    const u = await seedUser(t);
    const res = await postLogin({ email: u.email, password: 'correct horse battery' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      token: expect.any(String),
      user: {
        id: u.id,
        name: u.name,
        email: u.email,
        role: 'user',
        time_zone: null,
        temperature_unit: null,
        weight_unit: null,
        created_at: expect.any(String),
      },
    });
  });

  it('accepts the e-mail in any case and with surrounding spaces', async () => {
    const u = await seedUser(t);
    const res = await postLogin({
      email: `  ${u.email.toUpperCase()} `,
      password: 'correct horse battery',
    });
    expect(res.statusCode).toBe(200);
  });

  it('answers a wrong password and an unknown e-mail with the same 401 body, byte for byte', async () => {
    const u = await seedUser(t);
    const wrong = await postLogin({ email: u.email, password: 'not the password' });
    const unknown = await postLogin({
      email: 'nobody-here@example.com',
      password: 'not the password',
    });
    expectError(wrong, 401, 'Invalid email or password');
    expect(unknown.statusCode).toBe(wrong.statusCode);
    expect(unknown.body).toBe(wrong.body);
  });

  it.each([
    ['a missing password', { email: 'a@example.com' }, 'password is required'],
    ['an empty e-mail', { email: '', password: 'x' }, 'email is required'],
    [
      'an unknown field',
      { email: 'a@example.com', password: 'x', remember: true },
      'Unknown field: remember',
    ],
    ['a number as e-mail', { email: 5, password: 'x' }, 'email must be text'],
    [
      'an over-long password',
      { email: 'a@example.com', password: 'x'.repeat(129) },
      'password must be at most 128 characters',
    ],
    [
      'an over-long e-mail',
      { email: `${'a'.repeat(250)}@example.com`, password: 'x' },
      'email must be at most 254 characters',
    ],
  ])('answers 400 for %s', async (_what, payload, message) => {
    expectError(await postLogin(payload), 400, message);
  });
});

describe('GET /api/auth/profile', () => {
  it('rejects a request without a token', async () => {
    expectError(await t.app.inject({ url: '/api/auth/profile' }), 401, 'Authentication required');
  });

  it('rejects a malformed Authorization header', async () => {
    const u = await seedUser(t);
    for (const authorization of [
      u.token,
      `Basic ${u.token}`,
      `Bearer`,
      `Bearer ${u.token} extra`,
    ]) {
      expectError(
        await t.app.inject({ url: '/api/auth/profile', headers: { authorization } }),
        401,
        'Authentication required',
      );
    }
  });

  it('answers the signed-in user', async () => {
    const u = await seedUser(t, { name: 'Profile Person' });
    const res = await t.app.inject({ url: '/api/auth/profile', headers: bearer(u.token) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      user: {
        id: u.id,
        name: 'Profile Person',
        email: u.email,
        role: 'user',
        time_zone: null,
        temperature_unit: null,
        weight_unit: null,
        created_at: expect.any(String),
      },
    });
  });
});

describe('POST /api/auth/logout', () => {
  it('rejects a request without a token', async () => {
    expectError(
      await t.app.inject({ method: 'POST', url: '/api/auth/logout' }),
      401,
      'Authentication required',
    );
  });

  it('ends only that session: the token is refused afterwards, another sign-in still works', async () => {
    const u = await seedUser(t);
    const other = await login(t, u.email, 'correct horse battery');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: bearer(u.token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expectError(
      await t.app.inject({ url: '/api/auth/profile', headers: bearer(u.token) }),
      401,
      'Authentication required',
    );
    expect(
      (await t.app.inject({ url: '/api/auth/profile', headers: bearer(other) })).statusCode,
    ).toBe(200);
  });

  it('takes no body: a field is refused', async () => {
    const u = await seedUser(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: bearer(u.token),
      payload: { everywhere: true },
    });
    expectError(res, 400, 'Unknown field: everywhere');
    expect(
      (await t.app.inject({ url: '/api/auth/profile', headers: bearer(u.token) })).statusCode,
    ).toBe(200);
  });
});
