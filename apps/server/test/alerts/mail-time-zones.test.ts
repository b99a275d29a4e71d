// Mails name times on the owner's clock, and the daily digest goes at 08:00 there (DESIGN §3
// "Display"): the time zone is stored with the account, from the browser; UTC while unknown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fahrenheitToCelsius } from '@pawguard/shared';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { expectError } from '../helpers/api.js';
import { ownedCollar } from '../helpers/devices.js';
import { postAsCollar } from '../helpers/readings.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const HOUR = 3_600_000;
/** Moves the test clock to an instant (sessions are made after it, so they stay valid). */
const setClock = (iso: string) => t.clock.advance(Date.parse(iso) - t.clock.now().getTime());

const setTimeZone = (u: SeededUser, time_zone: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/auth/profile/time-zone',
    headers: bearer(u.token),
    payload: { time_zone },
  });

async function ownerIn(timeZone: string | null, frequency: 'immediate' | 'daily') {
  const admin = await seedUser(t, { role: 'admin' });
  const owner = await seedUser(t);
  if (timeZone) expect((await setTimeZone(owner, timeZone)).statusCode).toBe(200);
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/notifications/preferences',
    headers: bearer(owner.token),
    payload: {
      email_notifications_enabled: true,
      temperature_threshold: 85,
      critical_temperature_threshold: 105,
      email_frequency: frequency,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const collar = await ownedCollar(t, admin, owner, 'Rex');
  return { owner, collar };
}

async function hot(c: Awaited<ReturnType<typeof ownedCollar>>) {
  const res = await postAsCollar(t, c.device_id, c.device_key, {
    temperature: fahrenheitToCelsius(106),
    humidity: 30,
    timestamp: t.clock.now().toISOString(),
  });
  expect(res.statusCode, res.body).toBe(201);
}

const mailsTo = (u: SeededUser) =>
  t.app.container.db
    .selectFrom('outbox')
    .select(['subject', 'text_body', 'html_body'])
    .where('to_address', '=', u.email)
    .execute();

describe('the account time zone', () => {
  it('is stored in its canonical spelling and answered with the profile', async () => {
    const u = await seedUser(t);
    expect(
      (await t.app.inject({ url: '/api/auth/profile', headers: bearer(u.token) })).json(),
    ).toMatchObject({ user: { time_zone: null } });
    const res = await setTimeZone(u, 'america/new_york');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user).toMatchObject({ id: u.id, time_zone: 'America/New_York' });
    expect(
      (await t.app.inject({ url: '/api/auth/profile', headers: bearer(u.token) })).json().user
        .time_zone,
    ).toBe('America/New_York');
  });

  it('refuses what is not an IANA time zone name with a 400, and keeps the stored one', async () => {
    const u = await seedUser(t);
    await setTimeZone(u, 'Europe/Paris');
    for (const garbage of ['Mars/Olympus_Mons', '+05:00', '', 'x'.repeat(200), 5, null])
      expectError(await setTimeZone(u, garbage), 400, /time_zone/);
    const profile = await t.app.inject({ url: '/api/auth/profile', headers: bearer(u.token) });
    expect(profile.json().user.time_zone).toBe('Europe/Paris');
  });

  it('may be given at registration, and a bad one refuses the registration', async () => {
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        name: 'Zoe',
        email: `zoe-${Date.now()}@example.com`,
        password: 'correct horse battery',
        time_zone: 'Asia/Tokyo',
      },
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().user.time_zone).toBe('Asia/Tokyo');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        name: 'Zed',
        email: `zed-${Date.now()}@example.com`,
        password: 'correct horse battery',
        time_zone: 'Nowhere/Special',
      },
    });
    expectError(bad, 400, /time_zone must be an IANA time zone name/);
  });
});

describe('alert mail times', () => {
  it("name the local time with the zone's abbreviation", async () => {
    setClock('2027-07-15T14:05:00.000Z');
    const { owner, collar } = await ownerIn('America/New_York', 'immediate');
    await hot(collar);
    const [mail] = await mailsTo(owner);
    expect(mail!.text_body).toContain('When: 2027-07-15 10:05 EDT');
    expect(mail!.html_body).toContain('2027-07-15 10:05 EDT');
  });

  it('in UTC while the time zone is unknown', async () => {
    setClock('2027-07-15T14:05:00.000Z');
    const { owner, collar } = await ownerIn(null, 'immediate');
    await hot(collar);
    const [mail] = await mailsTo(owner);
    expect(mail!.text_body).toContain('When: 2027-07-15 14:05 UTC');
  });
});

describe('the daily digest at 08:00 on the owner’s clock', () => {
  it.each([
    // Summer: 08:00 EDT is 12:00 UTC.
    ['summer', '2027-07-14T22:00:00.000Z', '2027-07-15T12:00:00.000Z', '18:00 EDT'],
    // Winter: 08:00 EST is 13:00 UTC.
    ['winter', '2027-01-14T22:00:00.000Z', '2027-01-15T13:00:00.000Z', '17:00 EST'],
  ])('in New York, %s: not a minute before 08:00 local', async (_, alertAt, eight, local) => {
    setClock(alertAt);
    const { owner, collar } = await ownerIn('America/New_York', 'daily');
    const utcReader = await ownerIn(null, 'daily');
    await hot(collar);
    await hot(utcReader.collar);
    // 08:00 UTC came and went: the UTC reader's digest, not the New York owner's.
    setClock(new Date(Date.parse(eight) - HOUR - 60_000).toISOString());
    await t.app.container.alertMail.sendDigests();
    expect(await mailsTo(utcReader.owner)).toHaveLength(1);
    expect(await mailsTo(owner)).toHaveLength(0);
    setClock(new Date(Date.parse(eight) - 60_000).toISOString());
    await t.app.container.alertMail.sendDigests();
    expect(await mailsTo(owner)).toHaveLength(0);
    setClock(new Date(Date.parse(eight) + 30_000).toISOString());
    await t.app.container.alertMail.sendDigests();
    const mails = await mailsTo(owner);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('PawGuard daily summary: 1 alert');
    // The alert came the evening before (22:00 UTC), named on the owner's clock.
    expect(mails[0]!.text_body).toContain(`${alertAt.slice(0, 10)} ${local}`);
  });
});
