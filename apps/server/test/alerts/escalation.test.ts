import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fahrenheitToCelsius } from '@pawguard/shared';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { ownedCollar } from '../helpers/devices.js';
import { postAsCollar } from '../helpers/readings.js';

/**
 * Escalation with acknowledgement (docs/escalation.md): a DANGER or CRITICAL heat alert that
 * nobody acknowledges within its pet's minutes is told again, "not yet acknowledged"; the
 * acknowledgement says who and when; a mail's signed link acknowledges in one tap. The sweep is
 * driven by hand on the test clock.
 */
let t: TestApp;
let admin: SeededUser;
beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'https://pawguard.example' } });
  admin = await seedUser(t, { role: 'admin' });
});
afterAll(() => t.close());

const MIN = 60_000;
type Collar = Awaited<ReturnType<typeof ownedCollar>>;
let seq = 0;
async function post(c: Collar, fahrenheit: number, humidity = 10) {
  const at = new Date(t.clock.now().getTime() - 30_000 + ++seq * 10).toISOString();
  const res = await postAsCollar(t, c.device_id, c.device_key, {
    timestamp: at,
    temperature: fahrenheitToCelsius(fahrenheit),
    humidity,
  });
  expect(res.statusCode, res.body).toBe(201);
}
const sweep = () => t.app.container.alerts.sweepUnacknowledged();

async function setup(name = 'Biscuit') {
  const u = await seedUser(t, { name: `Owner of ${name}` });
  const c = await ownedCollar(t, admin, u, name);
  return { u, c };
}
async function notifications(u: SeededUser) {
  const res = await t.app.inject({ url: '/api/notifications', headers: bearer(u.token) });
  return res.json().notifications as { kind: string; title: string; message: string }[];
}
async function openAlert(u: SeededUser, c: Collar) {
  const res = await t.app.inject({
    url: `/api/devices/${c.id}/alerts?resolved=false`,
    headers: bearer(u.token),
  });
  return res.json().alerts.find((a: { type: string }) => a.type === 'heat');
}
const mailsTo = (u: SeededUser) => t.mail.filter((m) => m.to === u.email);

describe('a DANGER or CRITICAL alert nobody acknowledges is sent again', () => {
  it('CRITICAL: after 5 minutes, once, "not yet acknowledged", by notification and mail', async () => {
    const { u, c } = await setup();
    await post(c, 110);
    t.clock.advance(4 * MIN);
    expect(await sweep()).toBe(0);
    t.clock.advance(1 * MIN + 1_000);
    expect(await sweep()).toBe(1);
    const [latest] = await notifications(u);
    expect(latest!.kind).toBe('unacknowledged');
    expect(latest!.title).toBe('Biscuit: Critical heat alert not yet acknowledged');
    expect(latest!.message).toMatch(/^Nobody has acknowledged this alert yet\./);
    await t.app.container.outboxWorker.drain();
    expect(mailsTo(u).map((m) => m.subject)).toEqual([
      expect.stringMatching(/^\[CRITICAL\] Biscuit: heat alert at /),
      expect.stringMatching(/^\[CRITICAL\] Biscuit: heat alert NOT YET ACKNOWLEDGED at /),
    ]);
    // Once a level.
    t.clock.advance(10 * MIN);
    expect(await sweep()).toBe(0);
  });

  it('an acknowledged alert is not sent again; the acknowledgement names who and when', async () => {
    const { u, c } = await setup('Rex');
    await post(c, 110);
    const alert = await openAlert(u, c);
    const ack = await t.app.inject({
      method: 'POST',
      url: `/api/devices/${c.id}/alerts/${alert.id}/acknowledge`,
      headers: bearer(u.token),
    });
    expect(ack.statusCode, ack.body).toBe(200);
    expect(ack.json().alert).toMatchObject({
      acknowledged_at: expect.any(String),
      acknowledged_by_name: 'Owner of Rex',
    });
    t.clock.advance(30 * MIN);
    expect(await sweep()).toBe(0);
    expect((await notifications(u)).map((n) => n.kind)).toEqual(['opened']);
  });

  it('DANGER waits its 15 minutes; raised to CRITICAL after its reminder, it is reminded again 5 minutes after', async () => {
    const { u, c } = await setup('Luna');
    // 95 °F at 60 % humidity: a heat index past the critical threshold (105 °F) is DANGER.
    await post(c, 95, 60);
    expect((await openAlert(u, c)).level).toBe('DANGER');
    t.clock.advance(14 * MIN);
    expect(await sweep()).toBe(0);
    t.clock.advance(1 * MIN + 1_000);
    expect(await sweep()).toBe(1);
    await post(c, 110);
    expect((await openAlert(u, c)).level).toBe('CRITICAL');
    t.clock.advance(5 * MIN + 1_000);
    expect(await sweep()).toBe(1);
    expect((await notifications(u)).map((n) => n.kind)).toEqual([
      'unacknowledged',
      'escalated',
      'unacknowledged',
      'opened',
    ]);
  });

  it('a WARNING is never sent again, and a resolved alert is not', async () => {
    const { c } = await setup('Max');
    await post(c, 90);
    t.clock.advance(60 * MIN);
    expect(await sweep()).toBe(0);
    const hot = await setup('Milo');
    await post(hot.c, 110);
    const alert = await openAlert(hot.u, hot.c);
    await t.app.inject({
      method: 'POST',
      url: `/api/devices/${hot.c.id}/alerts/${alert.id}/resolve`,
      headers: bearer(hot.u.token),
    });
    t.clock.advance(60 * MIN);
    expect(await sweep()).toBe(0);
  });

  it('each pet has its own minutes', async () => {
    const { u, c } = await setup('Pip');
    const url = `/api/dogs/${c.pet.id}/escalation`;
    const get = await t.app.inject({ url, headers: bearer(u.token) });
    expect(get.json()).toEqual({ escalation: { danger_minutes: 15, critical_minutes: 5 } });
    const put = await t.app.inject({
      method: 'PUT',
      url,
      headers: bearer(u.token),
      payload: { danger_minutes: 20, critical_minutes: 2 },
    });
    expect(put.json()).toEqual({ escalation: { danger_minutes: 20, critical_minutes: 2 } });
    await post(c, 110);
    t.clock.advance(2 * MIN + 1_000);
    expect(await sweep()).toBe(1);
  });

  it('per-pet minutes: out of range → 400; another owner’s pet → 404, unchanged', async () => {
    const { u, c } = await setup('Nala');
    const stranger = await seedUser(t);
    const url = `/api/dogs/${c.pet.id}/escalation`;
    const bad = await t.app.inject({
      method: 'PUT',
      url,
      headers: bearer(u.token),
      payload: { danger_minutes: 0, critical_minutes: 5 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/danger_minutes must be from 1 to 120 minutes/);
    for (const method of ['GET', 'PUT'] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: bearer(stranger.token),
        ...(method === 'PUT' ? { payload: { danger_minutes: 1, critical_minutes: 1 } } : {}),
      });
      expect(res.statusCode).toBe(404);
    }
    const after = await t.app.inject({ url, headers: bearer(u.token) });
    expect(after.json().escalation).toEqual({ danger_minutes: 15, critical_minutes: 5 });
  });
});

describe('the acknowledge link in a heat alert mail', () => {
  const tokenOf = (text: string) => /\/acknowledge#([A-Za-z0-9._-]+)/.exec(text)?.[1];
  const byLink = (token: string) =>
    t.app.inject({ method: 'POST', url: '/api/alerts/acknowledge-link', payload: { token } });

  it('acknowledges in one tap, for the person it was made for, and says who', async () => {
    const { u, c } = await setup('Coco');
    await post(c, 110);
    await t.app.container.outboxWorker.drain();
    const [mail] = mailsTo(u);
    expect(mail!.text).toMatch(/Acknowledge: I'm on it: https:\/\/pawguard\.example\/acknowledge#/);
    expect(mail!.html).toContain('/acknowledge#');
    const token = tokenOf(mail!.text)!;
    const res = await byLink(token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().alert).toMatchObject({ acknowledged_by_name: 'Owner of Coco' });
    // Again: as it is.
    expect((await byLink(token)).statusCode).toBe(200);
    t.clock.advance(30 * MIN);
    expect(await sweep()).toBe(0);
  });

  it('a link to a Danger does not acknowledge the Critical it has become since (409)', async () => {
    const { u, c } = await setup('Ziggy');
    await post(c, 95, 60);
    await t.app.container.outboxWorker.drain();
    const token = tokenOf(mailsTo(u)[0]!.text)!;
    await post(c, 110);
    const res = await byLink(token);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatch(/raised to CRITICAL since/);
    expect((await openAlert(u, c)).acknowledged_at).toBeNull();
  });

  it('an altered, expired or foreign link changes nothing; a resolved alert is 409', async () => {
    const { u, c } = await setup('Bella');
    await post(c, 110);
    await t.app.container.outboxWorker.drain();
    const token = tokenOf(mailsTo(u)[0]!.text)!;
    const altered = `${token.slice(0, -3)}${token.slice(-3) === 'AAA' ? 'BBB' : 'AAA'}`;
    expect((await byLink(altered)).statusCode).toBe(404);
    expect((await byLink('not-a-token')).statusCode).toBe(404);
    // A session token is not an acknowledge token.
    expect((await byLink(u.token)).statusCode).toBe(404);
    // Made for someone who does not own the collar.
    const { ackLinks, clock } = t.app.container;
    const stranger = await seedUser(t);
    const alert = await openAlert(u, c);
    const foreign = await ackLinks.token(
      { alertId: alert.id, userId: stranger.id, level: 'CRITICAL' },
      clock.now(),
    );
    expect((await byLink(foreign)).statusCode).toBe(404);
    expect((await openAlert(u, c)).acknowledged_at).toBeNull();
    // A day later the link has expired (and so has the owner's sign-in: read the row).
    t.clock.advance(24 * 60 * MIN + 60_000);
    expect((await byLink(token)).statusCode).toBe(404);
    const row = () =>
      t.app.container.db
        .selectFrom('alerts')
        .select(['acknowledged_at', 'resolved_at'])
        .where('id', '=', alert.id)
        .executeTakeFirstOrThrow();
    expect((await row()).acknowledged_at).toBeNull();
    // Resolved: 409, as from the card.
    const fresh = await ackLinks.token(
      { alertId: alert.id, userId: u.id, level: 'CRITICAL' },
      t.clock.now(),
    );
    await t.app.container.alerts.resolveByOwner(c.id, alert.id);
    expect((await row()).resolved_at).not.toBeNull();
    expect((await byLink(fresh)).statusCode).toBe(409);
  });
});
