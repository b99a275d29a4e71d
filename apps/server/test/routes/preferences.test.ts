import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { expectError } from '../helpers/api.js';

let t: TestApp;
let u: SeededUser;
beforeAll(async () => {
  t = await createTestApp();
  u = await seedUser(t);
});
afterAll(() => t.close());

const URL = '/api/notifications/preferences';
const put = (token: string, payload: unknown) =>
  t.app.inject({ method: 'PUT', url: URL, headers: bearer(token), payload: payload as object });
const valid = {
  email_notifications_enabled: false,
  temperature_threshold: 82.5,
  critical_temperature_threshold: 101.3,
  email_frequency: 'hourly',
};

describe('GET /api/notifications/preferences', () => {
  it('rejects a request without a token', async () => {
    expectError(await t.app.inject({ url: URL }), 401, 'Authentication required');
  });

  it('answers the defaults when none are stored', async () => {
    const fresh = await seedUser(t);
    const res = await t.app.inject({ url: URL, headers: bearer(fresh.token) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      preferences: {
        email_notifications_enabled: true,
        temperature_threshold: 85,
        critical_temperature_threshold: 105,
        email_frequency: 'immediate',
      },
    });
  });
});

describe('PUT /api/notifications/preferences', () => {
  it('rejects a request without a token', async () => {
    expectError(
      await t.app.inject({ method: 'PUT', url: URL, payload: valid }),
      401,
      'Authentication required',
    );
  });

  it('stores the preferences, which GET then answers (and only for that user)', async () => {
    const res = await put(u.token, valid);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ preferences: valid });
    expect((await t.app.inject({ url: URL, headers: bearer(u.token) })).json()).toEqual({
      preferences: valid,
    });

    const next = {
      ...valid,
      email_notifications_enabled: true,
      email_frequency: 'daily',
      temperature_threshold: 70,
    };
    await put(u.token, next);
    expect((await t.app.inject({ url: URL, headers: bearer(u.token) })).json()).toEqual({
      preferences: next,
    });

    const someoneElse = await seedUser(t);
    expect(
      (await t.app.inject({ url: URL, headers: bearer(someoneElse.token) })).json().preferences
        .email_frequency,
    ).toBe('immediate');
  });

  it('accepts the bounds 70 and 120 and does not require critical above warning', async () => {
    const res = await put(u.token, {
      ...valid,
      temperature_threshold: 120,
      critical_temperature_threshold: 70,
    });
    expect(res.statusCode).toBe(200);
  });

  it.each([
    [
      'a threshold below 70',
      { ...valid, temperature_threshold: 69.9 },
      'temperature_threshold must be between 70 and 120 °F',
    ],
    [
      'a threshold above 120',
      { ...valid, critical_temperature_threshold: 120.1 },
      'critical_temperature_threshold must be between 70 and 120 °F',
    ],
    [
      'a threshold as text',
      { ...valid, temperature_threshold: '85' },
      'temperature_threshold must be a number',
    ],
    [
      'an unknown frequency',
      { ...valid, email_frequency: 'weekly' },
      'email_frequency must be immediate, hourly or daily',
    ],
    [
      'a missing switch',
      { ...valid, email_notifications_enabled: undefined },
      'email_notifications_enabled is required',
    ],
    [
      'a switch as text',
      { ...valid, email_notifications_enabled: 'yes' },
      'email_notifications_enabled must be true or false',
    ],
    [
      'a missing frequency',
      { ...valid, email_frequency: undefined },
      'email_frequency is required',
    ],
    ['an unknown field', { ...valid, user_id: u?.id ?? 'x' }, 'Unknown field: user_id'],
  ])('answers 400 for %s and keeps what was stored', async (_what, payload, message) => {
    const before = (await t.app.inject({ url: URL, headers: bearer(u.token) })).json();
    expectError(await put(u.token, payload), 400, message);
    expect((await t.app.inject({ url: URL, headers: bearer(u.token) })).json()).toEqual(before);
  });
});
