import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WaitlistService } from '../../src/services/waitlist-service.js';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';

let t: TestApp;
let admin: SeededUser;
let user: SeededUser;

const valid = (over: Record<string, unknown> = {}) => ({
  name: 'Ada Owner',
  email: `ada-${Math.random().toString(36).slice(2, 8)}@example.com`,
  phone: '+1 (555) 010-2030',
  petName: 'Biscuit',
  petBreed: 'Beagle',
  ...over,
});

const join = (payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/waitlist', payload: payload as object });

beforeAll(async () => {
  t = await createTestApp();
  admin = await seedUser(t, { role: 'admin' });
  user = await seedUser(t);
});
afterAll(() => t.close());

describe('POST /api/waitlist', () => {
  it('stores an entry and answers 201 with a thank-you message', async () => {
    const body = valid({ email: 'First@Example.com' });
    const res = await join(body);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ success: true, message: expect.stringMatching(/thanks/i) });
    const list = await t.app.inject({ url: '/api/admin/waitlist', headers: bearer(admin.token) });
    expect(list.json().entries).toContainEqual(
      expect.objectContaining({
        name: 'Ada Owner',
        email: 'first@example.com',
        petName: 'Biscuit',
        petBreed: 'Beagle',
      }),
    );
  });

  it('answers 409 for an e-mail already on the list, whatever its case', async () => {
    await join(valid({ email: 'dup@example.com' }));
    const res = await join(valid({ email: 'DUP@example.com', name: 'Someone Else' }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'This email is already on the waitlist' });
  });

  it.each([
    ['name', { name: '' }, 'name is required'],
    ['name (blank)', { name: '   ' }, 'name is required'],
    ['email', { email: 'not-an-email' }, 'email must be a valid e-mail address'],
    ['phone', { phone: 'call me maybe' }, 'phone may contain only digits, spaces and + ( ) . -'],
    ['phone (too long)', { phone: '1'.repeat(31) }, 'phone must be at most 30 characters'],
    ['petName', { petName: 'x'.repeat(101) }, 'petName must be at most 100 characters'],
    ['petBreed', { petBreed: 'Wolf' }, 'petBreed must be one of the listed breeds'],
  ])('refuses a bad %s with a clear error', async (_field, over, message) => {
    const res = await join(valid(over));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: message });
  });

  it.each([
    ['name', { name: 5 }, 'name must be text'],
    ['petName', { petName: ['Rex'] }, 'petName must be text'],
    ['email', { email: 42 }, 'email must be text'],
  ])('says a %s of the wrong type must be text', async (_field, over, message) => {
    const res = await join(valid(over));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: message });
  });

  it.each([
    ['name', { name: 'Ada\nBcc: x@evil.test' }],
    ['petName', { petName: 'Rex\u0007' }],
  ])('refuses line breaks and control characters in %s', async (field, over) => {
    const res = await join(valid(over));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: `${field} must not contain line breaks or control characters`,
    });
  });

  it.each(['name', 'email', 'phone', 'petName', 'petBreed'])('requires %s', async (field) => {
    const body: Record<string, unknown> = valid();
    delete body[field];
    const res = await join(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(new RegExp(`^${field}`));
  });

  it('refuses unknown fields (IN-1)', async () => {
    const res = await join(valid({ role: 'admin' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/role/);
  });

  it('stores nothing from a refused request', async () => {
    const before = (
      await t.app.inject({ url: '/api/admin/waitlist', headers: bearer(admin.token) })
    ).json().total;
    await join(valid({ petBreed: 'Wolf' }));
    const after = (
      await t.app.inject({ url: '/api/admin/waitlist', headers: bearer(admin.token) })
    ).json().total;
    expect(after).toBe(before);
  });
});

describe('GET /api/admin/waitlist', () => {
  it('rejects a request without a token', async () => {
    const res = await t.app.inject({ url: '/api/admin/waitlist' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toHaveProperty('error');
  });
  it('refuses a user with 403', async () => {
    const res = await t.app.inject({ url: '/api/admin/waitlist', headers: bearer(user.token) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toHaveProperty('error');
  });
  it('returns XSS probes as literal text (WEB-3)', async () => {
    const probe = '<img src=x onerror=alert(1)>';
    await join(valid({ name: probe, petName: probe }));
    const res = await t.app.inject({ url: '/api/admin/waitlist', headers: bearer(admin.token) });
    expect(res.json().entries).toContainEqual(
      expect.objectContaining({ name: probe, petName: probe }),
    );
  });
});

describe('paging the admin list', () => {
  it('pages newest first at most 100 at a time, with the total', async () => {
    const paged = await createTestApp();
    try {
      const a = await seedUser(paged, { role: 'admin' });
      for (let i = 0; i < 5; i++) {
        paged.clock.advance(1_000);
        await paged.app.inject({
          method: 'POST',
          url: '/api/waitlist',
          payload: valid({ name: `Person ${i}` }),
        });
      }
      const first = await paged.app.inject({
        url: '/api/admin/waitlist?limit=2',
        headers: bearer(a.token),
      });
      expect(first.json().total).toBe(5);
      expect(first.json().entries.map((e: { name: string }) => e.name)).toEqual([
        'Person 4',
        'Person 3',
      ]);
      const last = await paged.app.inject({
        url: '/api/admin/waitlist?limit=2&offset=4',
        headers: bearer(a.token),
      });
      expect(last.json().entries.map((e: { name: string }) => e.name)).toEqual(['Person 0']);
      const all = await paged.app.inject({ url: '/api/admin/waitlist', headers: bearer(a.token) });
      expect(all.json().entries).toHaveLength(5);
    } finally {
      await paged.close();
    }
  });

  it.each([
    ['limit=101', 'limit must be a number from 1 to 100'],
    ['limit=0', 'limit must be a number from 1 to 100'],
    ['offset=-1', 'offset must be a whole number, 0 or more'],
    ['limit=ten', 'limit must be a number from 1 to 100'],
    ['page=2', 'Unknown field: page'],
  ])('refuses %s with a clear error', async (query, message) => {
    const res = await t.app.inject({
      url: `/api/admin/waitlist?${query}`,
      headers: bearer(admin.token),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: message });
  });
});

describe('GET /api/admin/waitlist/export.csv', () => {
  it('rejects a request without a token, and a user', async () => {
    expect((await t.app.inject({ url: '/api/admin/waitlist/export.csv' })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ url: '/api/admin/waitlist/export.csv', headers: bearer(user.token) }))
        .statusCode,
    ).toBe(403);
  });
  it('exports every entry as CSV with formula cells neutralised', async () => {
    await join(
      valid({
        name: '=HYPERLINK("http://evil.test","click")',
        email: 'formula@example.com',
        petName: '@SUM(A1)',
      }),
    );
    const res = await t.app.inject({
      url: '/api/admin/waitlist/export.csv',
      headers: bearer(admin.token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename=".*\.csv"/);
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe('"Name","Email","Phone","Pet name","Pet breed","Joined"');
    const row = lines.find((l) => l.includes('formula@example.com'))!;
    expect(row.startsWith(`"'=HYPERLINK(""http://evil.test"",""click"")"`)).toBe(true);
    expect(row).toContain(`,"'@SUM(A1)",`);
    // A phone number starting with + is neutralised too.
    expect(row).toContain(`,"'+1 (555) 010-2030",`);
  });

  it('quotes every cell, so a `;` locale never splits one into a formula', async () => {
    await join(valid({ name: "Ann;=cmd|' /C calc'!A0", email: 'semicolon@example.com' }));
    const res = await t.app.inject({
      url: '/api/admin/waitlist/export.csv',
      headers: bearer(admin.token),
    });
    const row = res.body.split('\r\n').find((l) => l.includes('semicolon@example.com'))!;
    expect(row.startsWith(`"Ann;=cmd|' /C calc'!A0","semicolon@example.com",`)).toBe(true);
    // Every cell of every line is quoted.
    for (const line of res.body.split('\r\n').filter(Boolean))
      expect(line).toMatch(/^"([^"]|"")*"(,"([^"]|"")*")*$/);
  });

  it('never stops short: it reads batch after batch until every entry is in', async () => {
    const { repos, waitlist } = t.app.container;
    const total = (await waitlist.page(1, 0)).total;
    const small = new WaitlistService(repos.waitlist, t.clock, 3);
    const lines = (await small.csv()).split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(total + 1);
    expect(total).toBeGreaterThan(3);
    const emails = lines.slice(1).map((l) => l.split(',')[1]);
    expect(new Set(emails).size).toBe(total);
  });
});

describe('rate limit (RES-3)', () => {
  it('answers 429 with Retry-After after 10 joins a minute from one address', async () => {
    const limited = await createTestApp({ env: { RATE_LIMIT_MULTIPLIER: '1' } });
    try {
      for (let i = 0; i < 10; i++)
        expect(
          (await limited.app.inject({ method: 'POST', url: '/api/waitlist', payload: valid() }))
            .statusCode,
        ).toBe(201);
      const res = await limited.app.inject({
        method: 'POST',
        url: '/api/waitlist',
        payload: valid(),
      });
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.json().error).toMatch(/too many requests/i);
    } finally {
      await limited.close();
    }
  });
});
