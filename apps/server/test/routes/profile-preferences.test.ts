// The owner's display preferences (DESIGN §3 "Display"): which temperature unit comes first,
// the weight unit and the time zone, per account; null means the browser's default.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fahrenheitToCelsius } from '@pawguard/shared';
import {
  bearer,
  createTestApp,
  login,
  seedUser,
  TEST_PASSWORD,
  type SeededUser,
  type TestApp,
} from '../helpers/app.js';
import { expectError } from '../helpers/api.js';
import { ownedCollar } from '../helpers/devices.js';
import { postAsCollar } from '../helpers/readings.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const put = (u: SeededUser | null, payload: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/auth/profile/preferences',
    ...(u ? { headers: bearer(u.token) } : {}),
    payload: payload as object,
  });
const profileOf = async (u: SeededUser) =>
  (await t.app.inject({ url: '/api/auth/profile', headers: bearer(u.token) })).json().user;

describe('PUT /api/auth/profile/preferences', () => {
  it('rejects a request without a token', async () => {
    expectError(await put(null, { temperature_unit: 'C' }), 401);
  });

  it('stores the units and the time zone, answers the user and keeps them', async () => {
    const u = await seedUser(t);
    expect(await profileOf(u)).toMatchObject({ temperature_unit: null, weight_unit: null });
    const res = await put(u, {
      temperature_unit: 'C',
      weight_unit: 'kg',
      time_zone: 'europe/berlin',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      user: {
        id: u.id,
        name: u.name,
        email: u.email,
        role: 'user',
        time_zone: 'Europe/Berlin',
        temperature_unit: 'C',
        weight_unit: 'kg',
        created_at: expect.any(String),
      },
    });
    expect(await profileOf(u)).toMatchObject({
      temperature_unit: 'C',
      weight_unit: 'kg',
      time_zone: 'Europe/Berlin',
    });
    // A new session answers them too (the sign-in's user).
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: u.email, password: TEST_PASSWORD },
    });
    expect(signIn.json().user).toMatchObject({ temperature_unit: 'C', weight_unit: 'kg' });
  });

  it('changes only the fields given; a unit set to null goes back to the browser default', async () => {
    const u = await seedUser(t);
    await put(u, { temperature_unit: 'C', weight_unit: 'kg', time_zone: 'Asia/Tokyo' });
    expect((await put(u, { temperature_unit: 'F' })).json().user).toMatchObject({
      temperature_unit: 'F',
      weight_unit: 'kg',
      time_zone: 'Asia/Tokyo',
    });
    expect((await put(u, { weight_unit: null })).json().user).toMatchObject({
      temperature_unit: 'F',
      weight_unit: null,
      time_zone: 'Asia/Tokyo',
    });
  });

  it('answers 400 with a clear error for bad values, and stores nothing', async () => {
    const u = await seedUser(t);
    await put(u, { temperature_unit: 'C', weight_unit: 'kg', time_zone: 'Europe/Paris' });
    for (const bad of ['K', 'c', 'celsius', '', 5, true])
      expectError(
        await put(u, { temperature_unit: bad }),
        400,
        /temperature_unit must be 'F' or 'C'/,
      );
    for (const bad of ['lb', 'KG', 'stone', 0])
      expectError(await put(u, { weight_unit: bad }), 400, /weight_unit must be 'lbs' or 'kg'/);
    for (const bad of ['Mars/Olympus_Mons', '+05:00', null])
      expectError(await put(u, { time_zone: bad }), 400, /time_zone/);
    // A bad field spoils the whole request: the good one beside it is not stored either.
    expectError(await put(u, { temperature_unit: 'F', weight_unit: 'stone' }), 400, /weight_unit/);
    expectError(
      await put(u, {}),
      400,
      /at least one of temperature_unit, weight_unit and time_zone/,
    );
    expectError(await put(u, { temperature_unit: 'F', role: 'admin' }), 400);
    expect(await profileOf(u)).toMatchObject({
      role: 'user',
      temperature_unit: 'C',
      weight_unit: 'kg',
      time_zone: 'Europe/Paris',
    });
  });

  it("changes the caller's own account only: another user's is untouched and cannot be named", async () => {
    const a = await seedUser(t);
    const b = await seedUser(t);
    await put(b, { temperature_unit: 'F', weight_unit: 'lbs' });
    expect((await put(a, { temperature_unit: 'C', weight_unit: 'kg' })).statusCode).toBe(200);
    expectError(await put(a, { id: b.id, temperature_unit: 'C' }), 400);
    expectError(await put(a, { user_id: b.id, weight_unit: 'kg' }), 400);
    expect(await profileOf(b)).toMatchObject({ temperature_unit: 'F', weight_unit: 'lbs' });
  });

  it('leaves the time-zone route working as before', async () => {
    const u = await seedUser(t);
    await put(u, { temperature_unit: 'C' });
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/profile/time-zone',
      headers: bearer(u.token),
      payload: { time_zone: 'America/Chicago' },
    });
    expect(res.json().user).toMatchObject({ time_zone: 'America/Chicago', temperature_unit: 'C' });
  });
});

describe('units at registration', () => {
  const registerWith = (extra: object) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        name: 'Una',
        email: `una-${Math.random().toString(36).slice(2)}@example.com`,
        password: 'correct horse battery',
        ...extra,
      },
    });

  it('are stored when given, and null (the browser default) when not', async () => {
    const withUnits = await registerWith({ temperature_unit: 'C', weight_unit: 'kg' });
    expect(withUnits.statusCode, withUnits.body).toBe(201);
    expect(withUnits.json().user).toMatchObject({ temperature_unit: 'C', weight_unit: 'kg' });
    const token = await login(t, withUnits.json().user.email, 'correct horse battery');
    const profile = await t.app.inject({ url: '/api/auth/profile', headers: bearer(token) });
    expect(profile.json().user).toMatchObject({ temperature_unit: 'C', weight_unit: 'kg' });
    expect((await registerWith({})).json().user).toMatchObject({
      temperature_unit: null,
      weight_unit: null,
    });
  });

  it('refuse the registration when bad', async () => {
    expectError(await registerWith({ temperature_unit: 'K' }), 400, /temperature_unit/);
    expectError(await registerWith({ weight_unit: 'st' }), 400, /weight_unit/);
  });
});

describe('temperatures written for the owner', () => {
  async function hotCollarOf(unit: 'F' | 'C' | null) {
    const admin = await seedUser(t, { role: 'admin' });
    const owner = await seedUser(t);
    if (unit) expect((await put(owner, { temperature_unit: unit })).statusCode).toBe(200);
    const collar = await ownedCollar(t, admin, owner, 'Rex');
    const res = await postAsCollar(t, collar.device_id, collar.device_key, {
      temperature: fahrenheitToCelsius(106),
      humidity: 30,
      timestamp: t.clock.now().toISOString(),
    });
    expect(res.statusCode, res.body).toBe(201);
    const mails = await t.app.container.db
      .selectFrom('outbox')
      .select(['subject', 'text_body', 'html_body'])
      .where('to_address', '=', owner.email)
      .execute();
    const notifications = (
      await t.app.inject({ url: '/api/notifications', headers: bearer(owner.token) })
    ).json().notifications;
    const alerts = (await t.app.inject({ url: '/api/alerts', headers: bearer(owner.token) })).json()
      .alerts;
    return { mail: mails[0]!, notification: notifications[0], alert: alerts[0] };
  }

  it('lead with °C for an owner who reads °C first, naming °F too', async () => {
    const { mail, notification, alert } = await hotCollarOf('C');
    expect(mail.subject).toBe('[CRITICAL] Rex: heat alert at 41.1°C / 106.0°F');
    expect(mail.text_body).toContain('Temperature: 41.1°C / 106.0°F');
    expect(mail.html_body).toContain('41.1°C / 106.0°F');
    expect(notification.message).toContain('reads 41.1°C / 106.0°F');
    expect(alert.reasons[0]).toBe(
      'collar temperature 41.1°C is at or above the critical threshold of 40.6°C (105°F)',
    );
    expect(mail.text_body).toContain('Why: collar temperature 41.1°C');
  });

  it('lead with °F for an owner who reads °F first, and while the account has no unit', async () => {
    for (const unit of ['F', null] as const) {
      const { mail, notification, alert } = await hotCollarOf(unit);
      expect(mail.subject).toBe('[CRITICAL] Rex: heat alert at 106.0°F / 41.1°C');
      expect(mail.text_body).toContain('Temperature: 106.0°F / 41.1°C');
      expect(notification.message).toContain('reads 106.0°F / 41.1°C');
      expect(alert.reasons[0]).toBe(
        'collar temperature 106.0°F is at or above the critical threshold of 105°F',
      );
    }
  });
});
