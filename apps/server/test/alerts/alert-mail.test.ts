import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fahrenheitToCelsius } from '@pawguard/shared';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { ownedCollar } from '../helpers/devices.js';
import { postAsCollar } from '../helpers/readings.js';
import { bodyOf, closedPort, headerOf, startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { OutboxWorker, CLAIM_LEASE_MS } from '../../src/services/outbox-worker.js';
import { ALERT_MAILS_PER_HOUR } from '../../src/services/alert-mail.js';

/**
 * Alert mail end to end: readings through the real ingest path, the outbox, the worker and a
 * real SMTP server on loopback. Time moves on the test clock; nothing waits for real except
 * the SMTP round trips (and one 10 s timeout, on purpose).
 */
let t: TestApp;
let smtp: TestSmtp;
let admin: SeededUser;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({
    env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://pawguard.example' },
    buildOptions: { mailTransport: undefined },
  });
  admin = await seedUser(t, { role: 'admin' });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(() => {
  smtp.hang = false;
});

type Collar = Awaited<ReturnType<typeof ownedCollar>>;
const f = (fahrenheit: number, humidity = 10) => ({
  temperature: fahrenheitToCelsius(fahrenheit),
  humidity,
});
let seq = 0;
async function post(c: Collar, reading: Record<string, unknown>) {
  const at = new Date(t.clock.now().getTime() - 60_000 + ++seq * 10).toISOString();
  const res = await postAsCollar(t, c.device_id, c.device_key, { timestamp: at, ...reading });
  expect(res.statusCode, res.body).toBe(201);
}
const deliver = () => t.app.container.outboxWorker.drain();
const mailTo = (u: SeededUser) => smtp.received.filter((m) => m.to.includes(u.email));
async function preferences(u: SeededUser, p: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/notifications/preferences',
    headers: bearer(u.token),
    payload: {
      email_notifications_enabled: true,
      temperature_threshold: 85,
      critical_temperature_threshold: 105,
      email_frequency: 'immediate',
      ...p,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
}
const resolveOpen = async (u: SeededUser, c: Collar) => {
  const { alerts } = (
    await t.app.inject({
      url: `/api/devices/${c.id}/alerts?resolved=false`,
      headers: bearer(u.token),
    })
  ).json();
  for (const a of alerts)
    await t.app.inject({
      method: 'POST',
      url: `/api/devices/${c.id}/alerts/${a.id}/resolve`,
      headers: bearer(u.token),
    });
};

describe('alert e-mail, immediate', () => {
  it('a CRITICAL reading gives exactly one mail naming the pet, the level and the temperature', async () => {
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner, 'Rex');
    await post(c, f(105.8, 40));
    await deliver();
    await deliver();
    const mails = mailTo(owner);
    expect(mails).toHaveLength(1);
    const subject = headerOf(mails[0]!, 'subject')!;
    // °F first while the account has no unit of its own (the spec's unit), °C beside it.
    expect(subject).toMatch(/^\[CRITICAL\] Rex: heat alert at 105\.8°F \/ 41\.0°C$/);
    const body = bodyOf(mails[0]!);
    expect(body).toContain('Pet: Rex');
    expect(body).toContain(`Collar: Rex's collar (${c.device_id})`);
    expect(body).toContain('Temperature: 105.8°F / 41.0°C');
    expect(body).toContain('Humidity: 40.0%');
    expect(body).toMatch(/Heat index: \d+\.\d°F \/ \d+\.\d°C/);
    expect(body).toMatch(/When: \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    // The first aid that fits CRITICAL, in the app's words.
    expect(body).toContain('1. Cool first: pour cool water over the body and fan it, now.');
    expect(body).toContain(`https://pawguard.example/devices/${c.id}/history`);
    expect(body).toContain('https://pawguard.example/emergency');
    expect(mails[0]!.raw).toMatch(/Content-Type: text\/html/);
  });

  it('a second episode within 15 minutes sends none; an escalation sends one more', async () => {
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner, 'Bella');
    await post(c, f(86)); // WARNING opens: a mail
    await deliver();
    expect(mailTo(owner)).toHaveLength(1);
    await post(c, f(106)); // CRITICAL: an escalation, one more
    await deliver();
    expect(mailTo(owner)).toHaveLength(2);
    expect(headerOf(mailTo(owner)[1]!, 'subject')).toMatch(
      /^\[CRITICAL\] Bella: heat alert raised/,
    );

    await resolveOpen(owner, c);
    t.clock.advance(5 * 60_000);
    await post(c, f(107)); // a new episode 5 minutes later: recorded, not mailed
    await deliver();
    expect(mailTo(owner)).toHaveLength(2);
    const notes = (
      await t.app.inject({ url: '/api/notifications', headers: bearer(owner.token) })
    ).json().notifications;
    expect(notes).toHaveLength(3);

    await resolveOpen(owner, c);
    t.clock.advance(11 * 60_000);
    await post(c, f(107)); // past the cooldown: mailed again
    await deliver();
    expect(mailTo(owner)).toHaveLength(3);
  });

  it('one upload that opens and escalates a heat alert: two mails, each with its own level', async () => {
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner, 'Batchy');
    const at = (ms: number) => new Date(t.clock.now().getTime() - ms).toISOString();
    const res = await postAsCollar(t, c.device_id, c.device_key, [
      { timestamp: at(20_000), ...f(86) },
      { timestamp: at(10_000), ...f(106) },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    await deliver();
    const subjects = mailTo(owner).map((m) => headerOf(m, 'subject'));
    expect(subjects).toHaveLength(2);
    expect(subjects).toContainEqual(expect.stringMatching(/^\[WARNING\] Batchy: heat alert at/));
    expect(subjects).toContainEqual(
      expect.stringMatching(/^\[CRITICAL\] Batchy: heat alert raised at/),
    );
    const warning = mailTo(owner).find((m) => headerOf(m, 'subject')!.startsWith('[WARNING]'))!;
    expect(bodyOf(warning)).toContain('Level: WARNING');
    // Newest first: the escalation above the opening it followed.
    const notes = (
      await t.app.inject({ url: '/api/notifications', headers: bearer(owner.token) })
    ).json().notifications;
    expect(notes.map((n: { kind: string; level: string }) => `${n.kind} ${n.level}`)).toEqual([
      'escalated CRITICAL',
      'opened WARNING',
    ]);
  });

  it('the cooldown holds back only news already told: heat after a low-battery mail, and a worse reopening, are mailed', async () => {
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner, 'Milo');
    await post(c, { ...f(70), battery: 15 }); // low battery: a mail
    await deliver();
    expect(mailTo(owner)).toHaveLength(1);
    t.clock.advance(5 * 60_000);
    await post(c, { ...f(106), battery: 15 }); // CRITICAL heat five minutes later: mailed
    await deliver();
    expect(mailTo(owner)).toHaveLength(2);
    expect(headerOf(mailTo(owner)[1]!, 'subject')).toMatch(/^\[CRITICAL\] Milo: heat alert at/);

    const other = await ownedCollar(t, admin, owner, 'Otis');
    await post(other, f(86)); // WARNING: a mail
    await post(other, f(70)); // over
    t.clock.advance(60_000);
    await post(other, f(107)); // a new, worse episode a minute later: mailed
    await deliver();
    const otis = mailTo(owner).filter((m) => headerOf(m, 'subject')!.includes('Otis'));
    expect(otis.map((m) => headerOf(m, 'subject')!.slice(0, 10))).toEqual([
      '[WARNING] ',
      '[CRITICAL]',
    ]);
  });

  it('with e-mail off sends nothing, and the notification is still recorded', async () => {
    const owner = await seedUser(t);
    await preferences(owner, { email_notifications_enabled: false });
    const c = await ownedCollar(t, admin, owner, 'Quiet');
    await post(c, f(110));
    await deliver();
    expect(mailTo(owner)).toHaveLength(0);
    const count = await t.app.inject({
      url: '/api/notifications/unread-count',
      headers: bearer(owner.token),
    });
    expect(count.json().count).toBe(1);
  });

  it('wakes the outbox worker for a commit that queued mail, and only then', async () => {
    const owner = await seedUser(t);
    await preferences(owner, { email_notifications_enabled: false });
    const c = await ownedCollar(t, admin, owner, 'Quiet');
    const kick = vi.spyOn(t.app.container.outboxWorker, 'kick');
    try {
      await post(c, f(110));
      expect(kick).not.toHaveBeenCalled();
      await preferences(owner, { email_notifications_enabled: true });
      await post(c, { ...f(110), battery: 10 });
      expect(kick).toHaveBeenCalledTimes(1);
    } finally {
      kick.mockRestore();
    }
    await deliver();
    expect(mailTo(owner).map((m) => headerOf(m, 'subject'))).toEqual([
      expect.stringMatching(/LOW BATTERY/),
    ]);
  });

  it('RES-5: caps a storm of alerts per hour and summarises the rest in one mail', async () => {
    const owner = await seedUser(t);
    const storm = ALERT_MAILS_PER_HOUR + 3;
    for (let i = 0; i < storm; i++) {
      const c = await ownedCollar(t, admin, owner, `Dog${i}`);
      await post(c, f(110));
    }
    await deliver();
    expect(mailTo(owner)).toHaveLength(ALERT_MAILS_PER_HOUR);
    t.clock.advance(60 * 60_000);
    expect(await t.app.container.alertMail.sendDigests()).toBe(1);
    await deliver();
    const mails = mailTo(owner);
    expect(mails).toHaveLength(ALERT_MAILS_PER_HOUR + 1);
    const summary = mails.at(-1)!;
    expect(headerOf(summary, 'subject')).toBe('PawGuard: 3 alerts held back');
    const body = bodyOf(summary);
    for (let i = ALERT_MAILS_PER_HOUR; i < storm; i++) expect(body).toContain(`Dog${i}`);
  });

  it('a pet named like markup stays text in the mail', async () => {
    const owner = await seedUser(t, { name: '<b>Sam</b>' });
    const c = await ownedCollar(t, admin, owner, '<script>alert(1)</script>');
    await post(c, f(110));
    await deliver();
    const [mail] = mailTo(owner);
    const body = bodyOf(mail!);
    const html = body.slice(body.indexOf('Content-Type: text/html'));
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;b&gt;Sam&lt;/b&gt;');
    expect(html).not.toMatch(/<script>|<b>Sam/);
    // The plain-text part names it as written, which is safe in text.
    expect(body).toContain('Pet: <script>alert(1)</script>');
  });
  it('a pet name carrying a header break is refused, and one stored before stays on one line', async () => {
    const owner = await seedUser(t);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/dogs',
      headers: bearer(owner.token),
      payload: { name: 'Rex\r\nBcc: evil@example.com' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toEqual(expect.any(String));
    // A name stored before that rule (or by hand) must still not reach the headers.
    const c = await ownedCollar(t, admin, owner, 'Rex');
    await t.app.container.db
      .updateTable('dogs')
      .set({ name: 'Rex\r\nBcc: evil@example.com' })
      .where('id', '=', c.pet.id)
      .execute();
    await post(c, f(110));
    await deliver();
    const [mail] = mailTo(owner);
    expect(mail!.to).toEqual([owner.email]);
    expect(smtp.received.some((m) => m.to.includes('evil@example.com'))).toBe(false);
    const head = mail!.raw.split(/\r?\n\r?\n/)[0]!;
    expect(head).not.toMatch(/^Bcc:/im);
    expect(headerOf(mail!, 'subject')).toMatch(
      /^\[CRITICAL\] Rex Bcc: evil@example\.com: heat alert/,
    );
  });
});

describe('digests', () => {
  it('hourly: one digest with both events at the window’s end, none for an empty window', async () => {
    const owner = await seedUser(t);
    await preferences(owner, { email_frequency: 'hourly' });
    const a = await ownedCollar(t, admin, owner, 'Hot1');
    const b = await ownedCollar(t, admin, owner, 'Hot2');
    await post(a, f(110));
    await post(b, f(88));
    await t.app.container.alertMail.sendDigests();
    await deliver();
    expect(mailTo(owner)).toHaveLength(0); // the window has not ended
    t.clock.advance(60 * 60_000);
    await t.app.container.alertMail.sendDigests();
    await t.app.container.alertMail.sendDigests(); // twice, as two instances might
    await deliver();
    const mails = mailTo(owner);
    expect(mails).toHaveLength(1);
    expect(headerOf(mails[0]!, 'subject')).toBe('PawGuard hourly summary: 2 alerts');
    const body = bodyOf(mails[0]!);
    expect(body).toContain('Hot1');
    expect(body).toContain('Hot2');
    t.clock.advance(60 * 60_000);
    expect(await t.app.container.alertMail.sendDigests()).toBe(0);
  });

  it('counts an alert opened and then raised within the window once, and lists both', async () => {
    const owner = await seedUser(t);
    await preferences(owner, { email_frequency: 'hourly' });
    const c = await ownedCollar(t, admin, owner, 'Raised');
    await post(c, f(88));
    await post(c, f(110));
    t.clock.advance(60 * 60_000);
    expect(await t.app.container.alertMail.sendDigests()).toBe(1);
    await deliver();
    const [mail] = mailTo(owner);
    expect(headerOf(mail!, 'subject')).toBe('PawGuard hourly summary: 1 alert');
    const body = bodyOf(mail!);
    expect(body).toContain('Your hourly PawGuard summary: 1 alert');
    expect(body.match(/^- .*Raised/gm)).toHaveLength(2);
  });
});

describe('digest windows', () => {
  const HOUR = 60 * 60_000;
  /** Moves the test clock to `ms` (epoch ms). */
  const setClock = (ms: number) => t.clock.advance(ms - t.clock.now().getTime());
  const nextHour = () => Math.ceil((t.clock.now().getTime() + 1) / HOUR) * HOUR;
  // Back to where the clock was, so the sessions of the tests after these stay valid.
  let offset = 0;
  beforeAll(() => {
    offset = t.clock.now().getTime() - Date.now();
  });
  afterAll(() => setClock(Date.now() + offset));

  it('an entry of a window that commits after its digest went out gets a digest of its own', async () => {
    const owner = await seedUser(t);
    await preferences(owner, { email_frequency: 'hourly' });
    const early = await ownedCollar(t, admin, owner, 'Early');
    const late = await ownedCollar(t, admin, owner, 'Late');
    const h = nextHour();
    setClock(h - 30_000);
    await post(early, f(110));
    setClock(h + 1_000);
    expect(await t.app.container.alertMail.sendDigests()).toBe(1);
    // Another instance (its clock 2 s behind) commits an alert of the same window now.
    setClock(h - 1_000);
    await post(late, f(110));
    setClock(h + 61_000);
    expect(await t.app.container.alertMail.sendDigests()).toBe(1);
    await deliver();
    const mails = mailTo(owner);
    expect(mails).toHaveLength(2);
    expect(bodyOf(mails[0]!)).toContain('Early');
    expect(bodyOf(mails[1]!)).toContain('Late');
  });

  it('daily: the day’s alerts in one digest at 08:00 UTC, nothing before', async () => {
    const owner = await seedUser(t);
    await preferences(owner, { email_frequency: 'daily' });
    const a = await ownedCollar(t, admin, owner, 'Day1');
    const b = await ownedCollar(t, admin, owner, 'Day2');
    const eight = new Date(t.clock.now().getTime() + 24 * HOUR);
    eight.setUTCHours(8, 0, 0, 0);
    setClock(eight.getTime() - 5 * HOUR);
    await post(a, f(110));
    setClock(eight.getTime() - 2 * HOUR);
    await post(b, f(88));
    setClock(eight.getTime() - 1_000);
    expect(await t.app.container.alertMail.sendDigests()).toBe(0);
    setClock(eight.getTime() + 1_000);
    expect(await t.app.container.alertMail.sendDigests()).toBe(1);
    await deliver();
    const mails = mailTo(owner);
    expect(mails).toHaveLength(1);
    expect(headerOf(mails[0]!, 'subject')).toBe('PawGuard daily summary: 2 alerts');
    expect(bodyOf(mails[0]!)).toContain('Day1');
    expect(bodyOf(mails[0]!)).toContain('Day2');
    setClock(eight.getTime() + 24 * HOUR + 1_000);
    expect(await t.app.container.alertMail.sendDigests()).toBe(0);
  });
});

describe('the outbox across a crash', () => {
  it('a worker that dies between the outbox write and the send: the next one delivers exactly one', async () => {
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner, 'Crash');
    await post(c, f(110));
    // The first worker claims the row and never finishes (the process died mid-send).
    let bury: (err: Error) => void = () => undefined;
    let sending: () => void = () => undefined;
    const claimed = new Promise<void>((resolve) => (sending = resolve));
    const dead = new OutboxWorker(
      t.app.container.repos.outbox,
      {
        kind: 'smtp',
        send: () => {
          sending();
          return new Promise((_, reject) => (bury = reject));
        },
        close() {},
      },
      t.app.log,
      'test.local',
      1_000,
      () => t.clock.now(),
    );
    const deadDrain = dead.drain();
    await claimed; // its send has begun, so the row is claimed
    await deliver(); // the row is claimed: not sent again yet
    expect(mailTo(owner)).toHaveLength(0);
    t.clock.advance(CLAIM_LEASE_MS + 1_000);
    await deliver();
    await deliver();
    expect(mailTo(owner)).toHaveLength(1);
    // The dead worker's send ends here, while the database is open: its late bookkeeping
    // must not run after the file has closed it.
    bury(new Error('the process died'));
    await deadDrain;
  });
});

describe('the test e-mail', () => {
  const send = (u: SeededUser, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/notifications/test-email',
      headers: bearer(u.token),
      payload: payload as object,
    });

  it('sends a sample alert at once to the caller', async () => {
    const owner = await seedUser(t);
    const res = await send(owner, { petName: 'Test Pet', temperature: 90 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      delivered: true,
      message: `Test email sent to ${owner.email}.`,
    });
    const [mail] = mailTo(owner);
    expect(headerOf(mail!, 'subject')).toMatch(
      /^\[TEST\] \[WARNING\] Test Pet: heat alert at 90\.0°F \/ 32\.2°C$/,
    );
    // No collar sent it: its link goes to the Devices screen, not to a collar's page.
    expect(bodyOf(mail!)).toMatch(/See your collars: https:\/\/pawguard\.example\/devices\r?\n/);
    expect(bodyOf(mail!)).not.toMatch(/\/devices\/[^\s"]*\/history/);
  });

  it('refuses a name with a line break (no header injection), and bad input, with 400', async () => {
    const owner = await seedUser(t);
    const res = await send(owner, { petName: 'Rex\r\nBcc: evil@example.com', temperature: 90 });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/petName/);
    expect((await send(owner, { petName: 'Rex' })).statusCode).toBe(400);
    expect((await send(owner, { petName: 'Rex', temperature: '90' })).statusCode).toBe(400);
    expect(mailTo(owner)).toHaveLength(0);
  });

  it('with the mail server down answers success false with a clear message', async () => {
    const down = await createTestApp({
      env: { SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` },
      buildOptions: { mailTransport: undefined },
    });
    try {
      const u = await seedUser(down);
      const res = await down.app.inject({
        method: 'POST',
        url: '/api/notifications/test-email',
        headers: bearer(u.token),
        payload: { petName: 'Test Pet', temperature: 90 },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        success: false,
        delivered: false,
        message: 'Could not send the test email: the mail server could not be reached.',
      });
    } finally {
      await down.close();
    }
  });

  it('without SMTP_URL writes the mail to a file, tells an owner in an owner’s words and an admin where it is', async () => {
    const plain = await createTestApp({ buildOptions: { mailTransport: undefined } });
    try {
      const sendAs = (u: SeededUser) =>
        plain.app.inject({
          method: 'POST',
          url: '/api/notifications/test-email',
          headers: bearer(u.token),
          payload: { petName: 'Test Pet', temperature: 90 },
        });
      const u = await seedUser(plain);
      const res = await sendAs(u);
      expect(res.json()).toEqual({
        success: true,
        delivered: false,
        message: `Your test e-mail to ${u.email} was prepared, but this PawGuard service cannot deliver e-mail at the moment. Please ask your PawGuard administrator.`,
      });
      // An owner never reads server configuration.
      expect(res.json().message).not.toMatch(/SMTP|outbox|server's/);
      // Under the spec's title 'Test Email Sent', neither text says it was not sent.
      const contradicts = /not (be )?sent|could not/i;
      expect(res.json().message).not.toMatch(contradicts);
      const a = await seedUser(plain, { role: 'admin' });
      const forAdmin = (await sendAs(a)).json();
      expect(forAdmin).toMatchObject({ success: true, delivered: false });
      expect(forAdmin.message).toMatch(/SMTP_URL/);
      expect(forAdmin.message).toMatch(/outbox folder of the server's data directory/);
      expect(forAdmin.message).not.toMatch(contradicts);
    } finally {
      await plain.close();
    }
  });

  it('RES-4: while the mail server hangs: ingestion still acknowledges and alerts are recorded and queued; the test e-mail gives up', async () => {
    const first = await seedUser(t);
    const second = await seedUser(t);
    const a = await ownedCollar(t, admin, first, 'HangA');
    const b = await ownedCollar(t, admin, second, 'HangB');
    await post(a, f(110)); // a mail to send
    smtp.hang = true;
    const hangingBefore = smtp.hanging;
    const outboxOf = (u: SeededUser) =>
      t.app.container.db
        .selectFrom('outbox')
        .selectAll()
        .where('to_address', '=', u.email)
        .execute();
    // The worker takes the first mail and is stuck sending it to the hanging server.
    const worker = t.app.container.outboxWorker.drain();
    await expect
      .poll(() => smtp.hanging, { timeout: 5_000, interval: 20 })
      .toBeGreaterThan(hangingBefore);
    const test = send(second, { petName: 'Test Pet', temperature: 90 });

    await post(b, f(110)); // acknowledged (201) while the worker hangs
    const alerts = (
      await t.app.inject({ url: `/api/devices/${b.id}/alerts`, headers: bearer(second.token) })
    ).json();
    expect(alerts.alerts.map((x: { level: string }) => x.level)).toEqual(['CRITICAL']);
    const queued = await outboxOf(second);
    expect(queued).toHaveLength(1);
    expect(queued[0]!.status).toBe('pending');

    const res = await test;
    expect(res.statusCode).toBe(200);
    expect(res.json().success).toBe(false);
    smtp.hang = false;
    await worker;
    // Nothing was lost: the stuck mail is retried later, the queued one went out.
    expect((await outboxOf(first))[0]!.status).toBe('pending');
    await t.app.container.outboxWorker.drain();
    expect(mailTo(second)).toHaveLength(1);
  }, 60_000);
});
