import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert, Notification } from '@pawguard/shared';
import { fahrenheitToCelsius } from '@pawguard/shared';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { expectError } from '../helpers/api.js';
import { ownedCollar } from '../helpers/devices.js';
import { postAsCollar } from '../helpers/readings.js';
import { listen, openStream, ticketFor } from '../helpers/sse.js';

let t: TestApp;
let admin: SeededUser;
let owner: SeededUser;
let stranger: SeededUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await seedUser(t, { role: 'admin' });
  owner = await seedUser(t);
  stranger = await seedUser(t);
});
afterAll(() => t.close());

type Collar = Awaited<ReturnType<typeof ownedCollar>>;
/** °F readings in dry air (the heat index stays near the temperature). */
const f = (fahrenheit: number, extra: Record<string, unknown> = {}) => ({
  temperature: fahrenheitToCelsius(fahrenheit),
  humidity: 10,
  ...extra,
});
let seq = 0;
/** Posts readings one request at a time, each a second after the last (collar time). */
async function post(c: Collar, ...readings: Record<string, unknown>[]) {
  for (const r of readings) {
    const at = new Date(t.clock.now().getTime() - 60_000 + ++seq * 10).toISOString();
    const res = await postAsCollar(t, c.device_id, c.device_key, { timestamp: at, ...r });
    expect(res.statusCode, res.body).toBe(201);
  }
}
const get = (token: string, url: string) =>
  t.app.inject({ method: 'GET', url, headers: bearer(token) });
const alertsOf = async (c: Collar, query = '', token = owner.token) => {
  const res = await get(token, `/api/devices/${c.id}/alerts${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { alerts: Alert[]; total: number };
};
const notificationsOf = async (token = owner.token, limit = 100) =>
  (await get(token, `/api/notifications?limit=${limit}`)).json().notifications as Notification[];

describe('the heat alert', () => {
  it('opens at the first reading above SAFE, escalates, never de-escalates, resolves when SAFE again', async () => {
    const c = await ownedCollar(t, admin, owner, 'Rex');
    const before = (await notificationsOf()).length;
    await post(c, f(80), f(86)); // SAFE, then WARNING: opens
    let { alerts } = await alertsOf(c, '?resolved=false');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ type: 'heat', level: 'WARNING', resolved: false });
    expect(alerts[0]!.dog_name).toBe('Rex');
    expect(alerts[0]!.resolved_reading_at).toBeNull();
    // Why, in words an admin reads as well as the owner.
    expect(alerts[0]!.reasons).toEqual([
      'collar temperature 86.0°F is at or above the warning threshold of 85°F',
    ]);

    await post(c, f(106), f(95), f(90)); // CRITICAL: escalates; lower readings hold
    ({ alerts } = await alertsOf(c, '?resolved=false'));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ level: 'CRITICAL', resolved: false });
    expect(alerts[0]!.escalated_at).not.toBeNull();
    expect(alerts[0]!.peak_temperature_celsius).toBeCloseTo(fahrenheitToCelsius(106), 2);
    expect(alerts[0]!.reasons[0]).toBe(
      'collar temperature 106.0°F is at or above the critical threshold of 105°F',
    );

    await post(c, f(84.5)); // within the 1 °F hysteresis of WARNING: still open
    expect((await alertsOf(c, '?resolved=false')).alerts).toHaveLength(1);
    await post(c, f(84)); // 1 °F below: SAFE, resolved
    expect((await alertsOf(c, '?resolved=false')).alerts).toHaveLength(0);
    const resolved = (await alertsOf(c, '?resolved=true')).alerts;
    expect(resolved).toHaveLength(1);
    expect(resolved[0]).toMatchObject({
      resolved: true,
      resolved_by: 'condition',
      level: 'CRITICAL',
    });
    // The reading that ended it: the last one posted, by the collar's clock.
    const last = await get(owner.token, `/api/devices/${c.id}/vitals/latest`);
    expect(resolved[0]!.resolved_reading_at).toBe(last.json().vitals.timestamp);
    // A reading on time says nothing of being late.
    expect((await notificationsOf())[0]!.message).not.toContain('received late');

    // One notification for the opening, one for the escalation; none for holding or resolving.
    const mine = (await notificationsOf()).slice(0, (await notificationsOf()).length - before);
    expect(mine.map((n) => [n.kind, n.level])).toEqual([
      ['escalated', 'CRITICAL'],
      ['opened', 'WARNING'],
    ]);
    expect(mine[0]!.title).toContain('Rex');
    expect(mine.every((n) => n.device === c.id && n.read === false)).toBe(true);
  });

  it('a backlog uploaded late keeps the times its readings were taken', async () => {
    const c = await ownedCollar(t, admin, owner, 'Scout');
    const now = t.clock.now().getTime();
    const at = (hoursAgo: number) => new Date(now - hoursAgo * 3_600_000).toISOString();
    // Three days ago, then two: warm for an hour, then cool again. Uploaded now, in one request.
    const res = await postAsCollar(t, c.device_id, c.device_key, [
      { ...f(90), timestamp: at(72) },
      { ...f(78), timestamp: at(71) },
      { ...f(80), timestamp: at(49) },
      { ...f(90), timestamp: at(48) },
      { ...f(78), timestamp: at(47) },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    // Both opened at once, on arrival: listed newest reading first.
    const past = (await alertsOf(c, '?resolved=true')).alerts;
    expect(past.map((a) => a.reading_at)).toEqual([at(48), at(72)]);
    const [alert] = past;
    expect(alert).toMatchObject({
      type: 'heat',
      resolved_by: 'condition',
      // When it happened, by the collar's clock…
      reading_at: at(48),
      resolved_reading_at: at(47),
    });
    // …and when PawGuard learnt of it: on arrival, now.
    expect(alert!.resolved_at).toBe(alert!.opened_at);
    expect(Date.parse(alert!.opened_at)).toBeGreaterThanOrEqual(now);
    // The notification says when the reading was taken, since it arrived only now.
    const [latest] = await notificationsOf();
    expect(latest!.title).toBe('Scout: Warning heat alert');
    expect(latest!.message).toContain(
      `humidity (taken ${at(48).slice(0, 10)} ${at(48).slice(11, 16)} UTC, received late).`,
    );
  });

  it('stays quiet on a benign day: no alert, no notification', async () => {
    const c = await ownedCollar(t, admin, owner, 'Calm');
    const before = (await notificationsOf()).length;
    await post(c, f(70), f(75), f(80), f(84.9));
    expect((await alertsOf(c)).total).toBe(0);
    expect((await notificationsOf()).length).toBe(before);
  });

  it('an owner may resolve it while hot; the next hot reading opens a new one; resolving twice answers the same', async () => {
    const c = await ownedCollar(t, admin, owner, 'Max');
    await post(c, f(107));
    const [open] = (await alertsOf(c, '?resolved=false')).alerts;
    const url = `/api/devices/${c.id}/alerts/${open!.id}/resolve`;
    const res = await t.app.inject({ method: 'POST', url, headers: bearer(owner.token) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().alert).toMatchObject({ resolved: true, resolved_by: 'owner' });
    const again = await t.app.inject({ method: 'POST', url, headers: bearer(owner.token) });
    expect(again.statusCode).toBe(200);
    expect(again.json().alert.resolved_at).toBe(res.json().alert.resolved_at);

    await post(c, f(107));
    const reopened = (await alertsOf(c, '?resolved=false')).alerts;
    expect(reopened).toHaveLength(1);
    expect(reopened[0]!.id).not.toBe(open!.id);
  });

  it('an owner may acknowledge it instead: it stays open and silent while as hot, and an escalation still notifies', async () => {
    const c = await ownedCollar(t, admin, owner, 'Ack');
    const unread = async () =>
      (await get(owner.token, '/api/notifications/unread-count')).json().count as number;
    const before = await unread();
    await post(c, f(100));
    const [open] = (await alertsOf(c, '?resolved=false')).alerts;
    expect(open).toMatchObject({ level: 'WARNING', acknowledged_at: null });
    expect(await unread()).toBe(before + 1);
    const url = `/api/devices/${c.id}/alerts/${open!.id}/acknowledge`;
    const res = await t.app.inject({ method: 'POST', url, headers: bearer(owner.token) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().alert).toMatchObject({ id: open!.id, resolved: false });
    expect(res.json().alert.acknowledged_at).toEqual(expect.any(String));
    // Its notification is read; acknowledging again answers it as it is.
    expect(await unread()).toBe(before);
    const again = await t.app.inject({ method: 'POST', url, headers: bearer(owner.token) });
    expect(again.json().alert.acknowledged_at).toBe(res.json().alert.acknowledged_at);

    // Still as hot: the same alert, nothing new to read (a resolve would have opened another).
    const notes = (await notificationsOf()).length;
    await post(c, f(101), f(100));
    let alerts = (await alertsOf(c, '?resolved=false')).alerts;
    expect(alerts.map((a) => a.id)).toEqual([open!.id]);
    expect((await notificationsOf()).length).toBe(notes);

    // Worse: the escalation notifies as always and asks again.
    await post(c, f(107));
    alerts = (await alertsOf(c, '?resolved=false')).alerts;
    expect(alerts[0]).toMatchObject({ id: open!.id, level: 'CRITICAL', acknowledged_at: null });
    expect((await notificationsOf()).length).toBe(notes + 1);
    expect(await unread()).toBe(before + 1);
  });

  it('refuses to acknowledge a resolved alert (409), another type (400), a stranger (404) and an admin (403)', async () => {
    const c = await ownedCollar(t, admin, owner, 'AckRefused');
    await post(c, f(106), { ...f(70), battery: 10 });
    const open = (await alertsOf(c, '?resolved=false')).alerts;
    const battery = open.find((a) => a.type === 'low_battery')!;
    const ack = (id: string, token = owner.token) =>
      t.app.inject({
        method: 'POST',
        url: `/api/devices/${c.id}/alerts/${id}/acknowledge`,
        headers: bearer(token),
      });
    expectError(await ack(battery.id), 400, 'Only a heat alert can be acknowledged');
    const heat = (await alertsOf(c)).alerts.find((a) => a.type === 'heat')!;
    expect(heat.resolved).toBe(true); // the 70 °F reading ended it
    expectError(await ack(heat.id), 409, 'This alert is already resolved');

    await post(c, f(106));
    const hot = (await alertsOf(c, '?resolved=false')).alerts.find((a) => a.type === 'heat')!;
    expect((await ack(hot.id, stranger.token)).statusCode).toBe(404);
    expectError(
      await ack(hot.id, admin.token),
      403,
      'Only the collar’s owner can acknowledge its alerts',
    );
    const bad = await t.app.inject({
      method: 'POST',
      url: `/api/devices/${c.id}/alerts/not-a-uuid/acknowledge`,
      headers: bearer(owner.token),
    });
    expect(bad.statusCode).toBe(400);
    expect(
      (await alertsOf(c, '?resolved=false')).alerts.find((a) => a.type === 'heat'),
    ).toMatchObject({
      acknowledged_at: null,
    });
  });

  it('names a threshold the owner has changed since as the one that applied at the time', async () => {
    const keen = await seedUser(t);
    const c = await ownedCollar(t, admin, keen, 'Thresholds');
    const setCritical = async (critical: number) => {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/notifications/preferences',
        headers: bearer(keen.token),
        payload: {
          email_notifications_enabled: false,
          temperature_threshold: 85,
          critical_temperature_threshold: critical,
          email_frequency: 'immediate',
        },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await setCritical(90);
    await post(c, f(95));
    const reasons = async () =>
      (await alertsOf(c, '?resolved=false', keen.token)).alerts[0]!.reasons;
    expect(await reasons()).toContain(
      'collar temperature 95.0°F is at or above the critical threshold of 90°F',
    );
    await setCritical(105);
    expect(await reasons()).toContain(
      'collar temperature 95.0°F was at or above the critical threshold of 90°F at the time (it is 105°F now)',
    );
    expect(await reasons()).not.toContain(
      'collar temperature 95.0°F is at or above the critical threshold of 90°F',
    );
  });

  it('a backlog older than the latest reading never reopens a resolved episode', async () => {
    const c = await ownedCollar(t, admin, owner, 'Old');
    const base = t.clock.now().getTime() - 3_600_000;
    const at = (m: number) => new Date(base + m * 60_000).toISOString();
    // Now: SAFE at minute 30.
    await postAsCollar(t, c.device_id, c.device_key, { timestamp: at(30), ...f(75) });
    // A backlog from minutes 1–3, hot then: stored, judged, but it opens nothing.
    const res = await postAsCollar(t, c.device_id, c.device_key, [
      { timestamp: at(1), ...f(107) },
      { timestamp: at(2), ...f(108) },
      { timestamp: at(3), ...f(80) },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().vitals.map((v: { status: string }) => v.status)).toEqual([
      'CRITICAL',
      'CRITICAL',
      'SAFE',
    ]);
    expect((await alertsOf(c)).total).toBe(0);
  });

  it('a collar whose clock ran ahead does not silence the correctly timed readings after it', async () => {
    const c = await ownedCollar(t, admin, owner, 'Skew');
    const now = t.clock.now().getTime();
    // Four minutes ahead (accepted: up to five), and safe.
    await postAsCollar(t, c.device_id, c.device_key, {
      timestamp: new Date(now + 4 * 60_000).toISOString(),
      ...f(75),
    });
    t.clock.advance(5_000);
    // The clock fixed: a reading timed now, before the skewed one, and it is hot.
    await postAsCollar(t, c.device_id, c.device_key, {
      timestamp: t.clock.now().toISOString(),
      ...f(108),
    });
    const { alerts } = await alertsOf(c, '?resolved=false');
    expect(alerts.map((a) => [a.type, a.level])).toEqual([['heat', 'CRITICAL']]);
    // The screens show that hot reading as the collar's present…
    const device = (await get(owner.token, `/api/devices/${c.id}`)).json().device;
    expect(device.vitals_status).toBe('CRITICAL');
    // …and the next safe reading ends the alert.
    t.clock.advance(5_000);
    await postAsCollar(t, c.device_id, c.device_key, {
      timestamp: t.clock.now().toISOString(),
      ...f(75),
    });
    expect((await alertsOf(c, '?resolved=false')).alerts).toHaveLength(0);
    expect((await get(owner.token, `/api/devices/${c.id}`)).json().device.vitals_status).toBe(
      'SAFE',
    );
  });

  it('answers 404 for another owner’s device or alert, and lets an admin see but never resolve', async () => {
    const c = await ownedCollar(t, admin, owner, 'Private');
    await post(c, f(106));
    const [alert] = (await alertsOf(c)).alerts;
    expect((await get(stranger.token, `/api/devices/${c.id}/alerts`)).statusCode).toBe(404);
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/devices/${c.id}/alerts/${alert!.id}/resolve`,
      headers: bearer(stranger.token),
    });
    expect(refused.statusCode).toBe(404);
    expect((await alertsOf(c, '?resolved=false')).alerts).toHaveLength(1);
    // An alert of another device, under this device's path: not found.
    const other = await ownedCollar(t, admin, owner, 'Other');
    const wrongPath = await t.app.inject({
      method: 'POST',
      url: `/api/devices/${other.id}/alerts/${alert!.id}/resolve`,
      headers: bearer(owner.token),
    });
    expect(wrongPath.statusCode).toBe(404);
    // The stranger's list of all their alerts holds none of the owner's.
    const theirs = (await get(stranger.token, '/api/alerts')).json().alerts as Alert[];
    expect(theirs.some((a) => a.device === c.id)).toBe(false);
    expect((await alertsOf(c, '', admin.token)).total).toBe(1);
    const all = (await get(admin.token, '/api/alerts?resolved=false&limit=100')).json();
    expect(all.alerts.some((a: Alert) => a.id === alert!.id)).toBe(true);
    // Only the owner resolves (DESIGN §5): an admin is told so, and the alert stays open.
    const byAdmin = await t.app.inject({
      method: 'POST',
      url: `/api/devices/${c.id}/alerts/${alert!.id}/resolve`,
      headers: bearer(admin.token),
    });
    expectError(byAdmin, 403, 'Only the collar’s owner can resolve its alerts');
    expect((await alertsOf(c, '?resolved=false')).alerts).toHaveLength(1);
  });

  it('refuses a bad filter or id with 400', async () => {
    const c = await ownedCollar(t, admin, owner, 'Bad');
    const res = await get(owner.token, `/api/devices/${c.id}/alerts?resolved=maybe`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/resolved/);
    const bad = await t.app.inject({
      method: 'POST',
      url: `/api/devices/${c.id}/alerts/not-a-uuid/resolve`,
      headers: bearer(owner.token),
    });
    expect(bad.statusCode).toBe(400);
    // An id longer than the router takes is refused before any route runs: 400 from the
    // router, or 404 where the built web app's catch-all route is registered; { error } both.
    const long = await get(owner.token, `/api/devices/${'x'.repeat(300)}/alerts`);
    expect([400, 404]).toContain(long.statusCode);
    expect(long.json().error).toEqual(expect.any(String));
  });

  it('pushes the alert and the notification on the owner’s live stream at once', async () => {
    const base = await listen(t);
    const c = await ownedCollar(t, admin, owner, 'Live');
    const stream = await openStream(base, await ticketFor(t, owner.token));
    const other = await openStream(base, await ticketFor(t, stranger.token));
    const adminStream = await openStream(base, await ticketFor(t, admin.token));
    try {
      await post(c, f(106));
      const n = await stream.next((e) => e.event === 'notification');
      expect((n.data as { notification: Notification }).notification).toMatchObject({
        kind: 'opened',
        level: 'CRITICAL',
        device: c.id,
      });
      const a = await stream.next((e) => e.event === 'alert');
      expect((a.data as { alert: Alert }).alert).toMatchObject({ device: c.id, level: 'CRITICAL' });
      // An admin sees the alert, but the notification is the owner's alone.
      await adminStream.next((e) => e.event === 'alert');
      await new Promise((r) => setTimeout(r, 100));
      expect(adminStream.events.some((e) => e.event === 'notification')).toBe(false);
      expect(other.events.some((e) => e.event === 'notification' || e.event === 'alert')).toBe(
        false,
      );
    } finally {
      stream.close();
      other.close();
      adminStream.close();
    }
  });

  it('tells the owner’s other screens of an acknowledgement, so their bells count afresh', async () => {
    const base = await listen(t);
    const c = await ownedCollar(t, admin, owner, 'Other tab');
    await post(c, f(100));
    const [open] = (await alertsOf(c, '?resolved=false')).alerts;
    const otherTab = await openStream(base, await ticketFor(t, owner.token));
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/devices/${c.id}/alerts/${open!.id}/acknowledge`,
        headers: bearer(owner.token),
      });
      expect(res.statusCode, res.body).toBe(200);
      const a = await otherTab.next((e) => e.event === 'alert');
      expect((a.data as { alert: Alert }).alert).toMatchObject({
        id: open!.id,
        acknowledged_at: res.json().alert.acknowledged_at,
      });
    } finally {
      otherTab.close();
    }
  });
});

describe('the offline alert', () => {
  it('opens after 10 minutes of silence, once across sweeps, and resolves at the next reading', async () => {
    const c = await ownedCollar(t, admin, owner, 'Quiet');
    await post(c, f(75));
    const sweep = () => t.app.container.alerts.sweepOffline();
    await sweep();
    expect((await alertsOf(c)).total).toBe(0);
    t.clock.advance(9 * 60_000);
    await sweep();
    expect((await alertsOf(c)).total).toBe(0);
    t.clock.advance(60_000);
    await Promise.all([sweep(), sweep()]);
    await sweep();
    const { alerts } = await alertsOf(c, '?resolved=false');
    expect(alerts.map((a) => a.type)).toEqual(['offline']);
    const device = (await get(owner.token, `/api/devices/${c.id}`)).json().device;
    expect(device.status).toBe('offline');
    const notes = (await notificationsOf()).filter((n) => n.device === c.id);
    expect(notes.map((n) => n.alert_type)).toEqual(['offline']);

    await post(c, f(75));
    expect((await alertsOf(c, '?resolved=false')).alerts).toHaveLength(0);
    expect((await get(owner.token, `/api/devices/${c.id}`)).json().device.status).toBe('active');
    expect((await alertsOf(c, '?resolved=true')).alerts[0]).toMatchObject({
      type: 'offline',
      resolved_by: 'condition',
    });
  });

  it('a server back from its own outage gives collars 10 minutes to reconnect before any goes offline', async () => {
    const c = await ownedCollar(t, admin, owner, 'Outage');
    await post(c, f(75));
    // The server was down for an hour: the collar's silence is ours, not its own.
    t.clock.advance(60 * 60_000);
    const alerts = t.app.container.alerts;
    alerts.startSweeping();
    await alerts.stopSweeping();
    expect(await alerts.sweepOffline()).toBe(0);
    t.clock.advance(9 * 60_000);
    expect(await alerts.sweepOffline()).toBe(0);
    expect((await alertsOf(c)).total).toBe(0);
    // Still silent 10 minutes after the server listened again: now it is the collar.
    t.clock.advance(60_000);
    await alerts.sweepOffline();
    expect((await alertsOf(c, '?resolved=false')).alerts.map((a) => a.type)).toEqual(['offline']);
  });

  it('never sweeps a collar in maintenance', async () => {
    const c = await ownedCollar(t, admin, owner, 'Fix');
    await post(c, f(75));
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/devices/${c.id}`,
      headers: bearer(admin.token),
      payload: { status: 'maintenance' },
    });
    expect(res.statusCode, res.body).toBe(200);
    t.clock.advance(11 * 60_000);
    await t.app.container.alerts.sweepOffline();
    expect((await alertsOf(c)).total).toBe(0);
  });
});

describe('the low-battery alert', () => {
  it('opens below 20 % once per discharge and re-arms at 30 %', async () => {
    const c = await ownedCollar(t, admin, owner, 'Battery');
    await post(c, f(75, { battery: 50 }), f(75, { battery: 19 }), f(75, { battery: 12 }));
    let { alerts } = await alertsOf(c);
    expect(alerts.map((a) => [a.type, a.battery_level, a.resolved])).toEqual([
      ['low_battery', 19, false],
    ]);
    await post(c, f(75, { battery: 25 }), f(75, { battery: 15 })); // same discharge
    expect((await alertsOf(c)).total).toBe(1);
    await post(c, f(75, { battery: 30 })); // re-armed: the alert resolves
    ({ alerts } = await alertsOf(c, '?resolved=false'));
    expect(alerts).toHaveLength(0);
    await post(c, f(75, { battery: 18 })); // a new discharge
    expect((await alertsOf(c)).total).toBe(2);
  });
});

describe('the notifications API', () => {
  it('lists newest first with a limit, counts unread, marks read one and all; another’s is 404', async () => {
    const reader = await seedUser(t);
    const c = await ownedCollar(t, admin, reader, 'Bell');
    await post(c, f(86), f(100), f(106)); // WARNING opens, DANGER? (dry: no) CRITICAL escalates
    const list = await notificationsOf(reader.token);
    expect(list.length).toBeGreaterThanOrEqual(2);
    const times = list.map((n) => n.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(
      (await get(reader.token, '/api/notifications?limit=1')).json().notifications,
    ).toHaveLength(1);
    expect((await get(reader.token, '/api/notifications?limit=101')).statusCode).toBe(400);
    const count = () =>
      get(reader.token, '/api/notifications/unread-count').then((r) => r.json().count as number);
    expect(await count()).toBe(list.length);

    // A JSON content type and no body at all (no Content-Length either, as curl -X PUT sends).
    const read = await t.app.inject({
      method: 'PUT',
      url: `/api/notifications/${list[0]!.id}/read`,
      headers: { ...bearer(reader.token), 'content-type': 'application/json' },
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().notification).toMatchObject({ id: list[0]!.id, read: true });
    expect(await count()).toBe(list.length - 1);

    const theirs = await t.app.inject({
      method: 'PUT',
      url: `/api/notifications/${list[1]!.id}/read`,
      headers: bearer(stranger.token),
    });
    expect(theirs.statusCode).toBe(404);
    expect(await count()).toBe(list.length - 1);

    // As a client that sends a JSON content type on every PUT does, with nothing after it.
    const all = await t.app.inject({
      method: 'PUT',
      url: '/api/notifications/mark-all-read',
      headers: {
        ...bearer(reader.token),
        'content-type': 'application/json',
        'content-length': '0',
      },
    });
    expect(all.json()).toEqual({ success: true });
    // Only a JSON content type is taken for "no body": another is refused as before.
    const plain = await t.app.inject({
      method: 'PUT',
      url: '/api/notifications/mark-all-read',
      headers: { ...bearer(reader.token), 'content-type': 'text/plain', 'content-length': '0' },
    });
    expect(plain.statusCode).toBe(415);
    expect(await count()).toBe(0);
    expect((await notificationsOf(stranger.token)).some((n) => n.device === c.id)).toBe(false);
  });
});
