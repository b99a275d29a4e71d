import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { expectError, insertUser, leaksIn, seedDog, snapshot } from '../helpers/api.js';

let t: TestApp;
let user: SeededUser;
let admin: SeededUser;
beforeAll(async () => {
  t = await createTestApp();
  [user, admin] = await Promise.all([seedUser(t), seedUser(t, { role: 'admin' })]);
});
afterAll(() => t.close());

const FUZZ_RUNS = 40;
const validDog = {
  name: 'Fuzzy',
  breed: 'Beagle',
  age: 3,
  weight: 20,
  medical_info: null,
  emergency_contact: '',
};
const validPrefs = {
  email_notifications_enabled: true,
  temperature_threshold: 85,
  critical_temperature_threshold: 105,
  email_frequency: 'immediate',
};

/** Every write route with a valid body; the routes that take a body. */
const writeRoutes = async (): Promise<
  Array<{ name: string; opts: (body: unknown) => InjectOptions }>
> => {
  const dog = await seedDog(t, user.id);
  const target = await insertUser(t);
  return [
    {
      name: 'POST /api/auth/register',
      opts: (payload) => ({
        method: 'POST',
        url: '/api/auth/register',
        payload: payload as object,
      }),
    },
    {
      name: 'POST /api/auth/login',
      opts: (payload) => ({ method: 'POST', url: '/api/auth/login', payload: payload as object }),
    },
    {
      name: 'POST /api/auth/logout',
      opts: (payload) => ({
        method: 'POST',
        url: '/api/auth/logout',
        headers: bearer(user.token),
        payload: payload as object,
      }),
    },
    {
      name: 'POST /api/dogs',
      opts: (payload) => ({
        method: 'POST',
        url: '/api/dogs',
        headers: bearer(user.token),
        payload: payload as object,
      }),
    },
    {
      name: 'PUT /api/dogs/:id',
      opts: (payload) => ({
        method: 'PUT',
        url: `/api/dogs/${dog.id}`,
        headers: bearer(user.token),
        payload: payload as object,
      }),
    },
    {
      name: 'PUT /api/notifications/preferences',
      opts: (payload) => ({
        method: 'PUT',
        url: '/api/notifications/preferences',
        headers: bearer(user.token),
        payload: payload as object,
      }),
    },
    {
      name: 'PUT /api/auth/users/:id/role',
      opts: (payload) => ({
        method: 'PUT',
        url: `/api/auth/users/${target.id}/role`,
        headers: bearer(admin.token),
        payload: payload as object,
      }),
    },
  ];
};
const validBodies: Record<string, object> = {
  'POST /api/auth/register': {
    email: 'mass@example.com',
    password: 'long enough pw',
    name: 'Mass',
  },
  'POST /api/auth/login': { email: 'nobody@example.com', password: 'whatever' },
  'POST /api/auth/logout': {},
  'POST /api/dogs': validDog,
  'PUT /api/dogs/:id': validDog,
  'PUT /api/notifications/preferences': validPrefs,
  'PUT /api/auth/users/:id/role': { role: 'user' },
};

describe('AC-5: mass assignment — server-owned fields are refused on every write route', () => {
  const FORBIDDEN = [
    'id',
    'user_id',
    'role',
    'password_hash',
    'created_at',
    'updated_at',
    'email_verified_at',
    'owner_name',
    'dogs_count',
  ];

  it('answers 400 "Unknown field: …" for each forbidden field on each write route, and changes nothing', async () => {
    const routes = await writeRoutes();
    const before = await snapshot(t);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.constantFrom(...FORBIDDEN),
        fc.oneof(fc.string(), fc.integer(), fc.constant('admin'), fc.constant(null), fc.boolean()),
        async (route, field, value) => {
          const base = validBodies[route.name]!;
          if (field in base) return; // a field the route legitimately takes (role on the role route)
          const res = await t.app.inject(route.opts({ ...base, [field]: value }));
          expectError(res, 400, `Unknown field: ${field}`);
        },
      ),
      { numRuns: FUZZ_RUNS * 2 },
    );
    expect(await snapshot(t)).toEqual(before);
  });

  it('never lets a user make themselves admin through register or a pet', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        email: 'wannabe@example.com',
        password: 'long enough pw',
        name: 'W',
        role: 'admin',
      },
    });
    expectError(res, 400, 'Unknown field: role');
    expect(await t.app.container.repos.users.findByEmail('wannabe@example.com')).toBeUndefined();
  });
});

describe('IN-2: only JSON bodies are accepted, and JSON is answered as JSON', () => {
  it.each([
    ['text/plain', 'name=Rex'],
    ['application/x-www-form-urlencoded', 'name=Rex'],
    [
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nRex\r\n--x--',
    ],
    ['application/xml', '<dog><name>Rex</name></dog>'],
  ])('answers 415 for %s', async (contentType, body) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/dogs',
      headers: { ...bearer(user.token), 'content-type': contentType },
      body,
    });
    expectError(res, 415, 'Content-Type must be application/json');
  });

  it('answers 415 for text/plain on a public route too', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'text/plain' },
      body: '{}',
    });
    expectError(res, 415, 'Content-Type must be application/json');
  });

  it('labels JSON answers application/json; charset=utf-8, successes and failures alike', async () => {
    for (const opts of [
      { url: '/api/health' },
      { url: '/api/dogs', headers: bearer(user.token) },
      { url: '/api/dogs' },
      { url: '/api/nope' },
      { method: 'POST' as const, url: '/api/dogs', headers: bearer(user.token), payload: {} },
    ]) {
      expect((await t.app.inject(opts)).headers['content-type']).toBe(
        'application/json; charset=utf-8',
      );
    }
  });
});

describe('IN-3: prototype pollution payloads are refused', () => {
  it.each([
    ['__proto__', '{"name":"Rex","__proto__":{"polluted":"yes"}}'],
    ['nested __proto__', '{"name":"Rex","breed":{"__proto__":{"polluted":"yes"}}}'],
    ['constructor.prototype', '{"name":"Rex","constructor":{"prototype":{"polluted":"yes"}}}'],
  ])('answers 400 for %s and leaves Object.prototype alone', async (_what, body) => {
    const before = await snapshot(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/dogs',
      headers: { ...bearer(user.token), 'content-type': 'application/json' },
      body,
    });
    expectError(res, 400, 'Request body is not valid JSON');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(await snapshot(t)).toEqual(before);
  });
});

describe('IN-4: type confusion and parameter pollution', () => {
  it.each([
    ['an array for a text field', { name: ['Rex', 'Max'] }, 'name must be text'],
    ['an array for a number', { name: 'Rex', age: [1, 2] }, 'age must be a whole number of years'],
    [
      'an object for a number',
      { name: 'Rex', weight: { $gt: 0 } },
      'weight must be a number of lbs',
    ],
    ['a boolean for a number', { name: 'Rex', age: true }, 'age must be a whole number of years'],
    [
      'a numeric string for a number',
      { name: 'Rex', age: '3' },
      'age must be a whole number of years',
    ],
  ])('answers 400 for %s', async (_what, payload, message) => {
    expectError(
      await t.app.inject({
        method: 'POST',
        url: '/api/dogs',
        headers: bearer(user.token),
        payload,
      }),
      400,
      message,
    );
  });

  it('keeps the last of duplicate JSON keys, never merging them into an array', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/dogs',
      headers: { ...bearer(user.token), 'content-type': 'application/json' },
      body: '{"name":"First","name":"Second"}',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().dog.name).toBe('Second');
  });

  it('ignores ?id=1&id=2 style query pollution: the path decides, never a 5xx', async () => {
    const dog = await seedDog(t, user.id, { name: 'Path Decides' });
    const other = await seedDog(t, admin.id);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/dogs/${dog.id}?id=${other.id}&id=${dog.id}&user_id=${admin.id}&user_id=x`,
      headers: bearer(user.token),
      payload: { name: 'Renamed' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().dog).toMatchObject({ id: dog.id, user_id: user.id, name: 'Renamed' });
    expect((await t.app.container.repos.dogs.findOwned(other.id, admin.id))?.name).toBe('Biscuit');
  });

  it('answers 400, never 5xx, for path ids that are not ids', async () => {
    for (const id of ['1', '1,2', '%00', "1' OR '1'='1", 'a'.repeat(200), '[]', '%5B%5D']) {
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/dogs/${id}`,
        headers: bearer(user.token),
      });
      expect(res.statusCode, id).toBe(400);
    }
  });
});

const SQL_METACHARACTERS = [
  "'",
  '"',
  ';',
  '--',
  '/*',
  '*/',
  '\\',
  '%',
  '_',
  "' OR '1'='1",
  "'); DROP TABLE dogs; --",
  '$1',
  '`',
  'NULL',
];
/** Printable text with SQL metacharacters mixed in; no surrounding blanks (text fields are trimmed). */
const sqlishText = (max: number) =>
  fc
    .array(
      fc.oneof(
        fc.constantFrom(...SQL_METACHARACTERS),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }),
      ),
      { minLength: 1, maxLength: 8 },
    )
    .map((parts) => parts.join('').trim().slice(0, max))
    .filter((s) => s.length > 0 && s === s.trim());

describe('IN-1: a part of the address over 200 characters', () => {
  it.each([
    ['GET', '/api/devices/{250 characters}/vitals'],
    ['GET', '/api/dogs/{250 characters}'],
    ['POST', '/api/devices/{250 characters}/vitals'],
    ['DELETE', '/api/dogs/{250 characters}'],
    // No route takes it: refused by the not-found handler, as the web app's catch-all GET is.
    ['GET', '/api/nowhere/{250 characters}'],
  ] as const)('answers 400 for %s %s, whatever route the router tried', async (method, path) => {
    expectError(
      await t.app.inject({
        method,
        url: path.replace('{250 characters}', 'P'.repeat(250)),
        headers: bearer(user.token),
        ...(method === 'POST' ? { payload: { temperature: 20, humidity: 40 } } : {}),
      }),
      400,
      'A part of the address is too long',
    );
  });
});

describe('IN-5: SQL metacharacters are stored and returned verbatim', () => {
  it('round-trips every pet text field, with no 5xx and other rows unchanged', async () => {
    const bystander = await seedDog(t, admin.id, { name: 'Bystander' });
    const owner = await seedUser(t);
    await fc.assert(
      fc.asyncProperty(
        sqlishText(100),
        sqlishText(100),
        sqlishText(1000),
        sqlishText(1000),
        async (name, breed, medical_info, emergency_contact) => {
          const input = { name, breed, medical_info, emergency_contact };
          const res = await t.app.inject({
            method: 'POST',
            url: '/api/dogs',
            headers: bearer(owner.token),
            payload: input,
          });
          expect(res.statusCode, res.body).toBe(201);
          expect(res.json().dog).toMatchObject(input);
          const listed = (
            await t.app.inject({ url: '/api/dogs', headers: bearer(owner.token) })
          ).json().dogs as Array<{ id: string }>;
          expect(listed.find((d) => d.id === res.json().dog.id)).toMatchObject(input);
        },
      ),
      { numRuns: FUZZ_RUNS },
    );
    expect(await t.app.container.repos.dogs.findOwned(bystander.id, admin.id)).toMatchObject({
      name: 'Bystander',
    });
  });

  it('round-trips names and e-mails with metacharacters through register and login lookups', async () => {
    const name = "Robert'); DROP TABLE users; --";
    const email = "o'brien+test@example.com";
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email, password: "p'; --secret", name },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().user).toMatchObject({ name, email });
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: "p'; --secret" },
    });
    expect(again.statusCode).toBe(200);
    const wildcard = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: '%@example.com', password: "p'; --secret" },
    });
    expect(wildcard.statusCode).toBe(401);
  });

  it.each([
    [
      'a pet name',
      '/api/dogs',
      { name: 'Nul\u0000Dog' },
      'name must not contain the NUL character',
    ],
    [
      'a pet text field',
      '/api/dogs',
      { name: 'Rex', medical_info: 'a\u0000b' },
      'medical_info must not contain the NUL character',
    ],
    [
      'a login e-mail',
      '/api/auth/login',
      { email: 'a\u0000@example.com', password: 'x' },
      'email must not contain the NUL character',
    ],
    [
      'a name at sign-up',
      '/api/auth/register',
      { email: 'nul@example.com', password: 'long enough pw', name: 'a\u0000' },
      'name must not contain the NUL character',
    ],
  ])(
    'refuses a NUL character in %s with 400 rather than failing in the database',
    async (_what, url, payload, message) => {
      expectError(
        await t.app.inject({ method: 'POST', url, headers: bearer(user.token), payload }),
        400,
        message,
      );
    },
  );
});

describe('RES-1: bodies over 100 kB are refused', () => {
  it('answers 413 { error } for a 101 kB body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/dogs',
      headers: bearer(user.token),
      payload: { name: 'Big', medical_info: 'x'.repeat(101 * 1024) },
    });
    expectError(res, 413, 'Request body is too large');
  });

  it('answers 413 on a public route before reading the account', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'a@example.com', password: 'p'.repeat(120 * 1024) },
    });
    expectError(res, 413, 'Request body is too large');
  });
});

describe('WEB-3: markup in user text is stored and returned as literal text', () => {
  it('keeps <img src=x onerror=alert(1)> exactly as typed', async () => {
    const probe = '<img src=x onerror=alert(1)>';
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/dogs',
      headers: bearer(user.token),
      payload: { name: probe, breed: '<script>alert(1)</script>' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.body).toContain(JSON.stringify(probe).slice(1, -1));
    const listed = (await t.app.inject({ url: '/api/dogs', headers: bearer(user.token) })).json()
      .dogs;
    expect(listed.find((d: { id: string }) => d.id === res.json().dog.id)).toMatchObject({
      name: probe,
      breed: '<script>alert(1)</script>',
    });
  });
});

describe('ERR-1: no answer reveals a stack, SQL, a file path or node_modules', () => {
  const hostile = fc.oneof(
    fc.jsonValue(),
    fc.string({ unit: 'grapheme' }),
    fc.constantFrom(
      '{"a":',
      '[',
      'null',
      '"',
      '\u0000',
      '{"__proto__":{}}',
      "'; SELECT * FROM users; --",
      '{"name":1e999}',
      '{"name":"\\ud800"}',
    ),
  );
  const routes = [
    { method: 'POST', url: '/api/auth/register', auth: false },
    { method: 'POST', url: '/api/auth/login', auth: false },
    { method: 'POST', url: '/api/dogs', auth: true },
    { method: 'PUT', url: '/api/dogs/00000000-0000-4000-8000-000000000000', auth: true },
    { method: 'PUT', url: '/api/notifications/preferences', auth: true },
    { method: 'PUT', url: '/api/auth/users/00000000-0000-4000-8000-000000000000/role', auth: true },
  ] as const;

  it('answers every fuzzed body with a 2xx/4xx and a clean { error }', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        hostile,
        fc.boolean(),
        async (route, value, raw) => {
          const body = raw && typeof value === 'string' ? value : JSON.stringify(value);
          const res = await t.app.inject({
            method: route.method,
            url: route.url,
            headers: {
              ...(route.auth ? bearer(admin.token) : {}),
              'content-type': 'application/json',
            },
            body,
          });
          expect(
            res.statusCode,
            `${route.method} ${route.url} ${body.slice(0, 80)} → ${res.body}`,
          ).toBeLessThan(500);
          expect(leaksIn(res.body)).toEqual([]);
          if (res.statusCode >= 400) expect(Object.keys(res.json())).toEqual(['error']);
        },
      ),
      { numRuns: FUZZ_RUNS * 3 },
    );
  });

  it('answers fuzzed paths and query strings without a 5xx or a leak', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        fc.string({ maxLength: 40 }),
        async (segment, query) => {
          const res = await t.app.inject({
            url: `/api/dogs/${encodeURIComponent(segment)}?${encodeURIComponent(query)}=${encodeURIComponent(query)}`,
            method: 'DELETE',
            headers: bearer(user.token),
          });
          expect(res.statusCode).toBeLessThan(500);
          expect(leaksIn(res.body)).toEqual([]);
        },
      ),
      { numRuns: FUZZ_RUNS },
    );
  });
});
