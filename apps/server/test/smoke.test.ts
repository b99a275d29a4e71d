import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, seedUser, type TestApp } from './helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('smoke', () => {
  it('answers health', async () => {
    const res = await t.app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok' });
  });
  it('signs in a seeded user and reads the profile', async () => {
    const u = await seedUser(t);
    const res = await t.app.inject({ url: '/api/auth/profile', headers: bearer(u.token) });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.email).toBe(u.email);
  });
});
