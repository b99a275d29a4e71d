import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FailedMail } from '@pawguard/shared';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { expectError } from '../helpers/api.js';
import { OutboxWorker } from '../../src/services/outbox-worker.js';
import type { MailTransport } from '../../src/services/mail-transport.js';

let t: TestApp;
let admin: SeededUser;
let user: SeededUser;

const DAY_MS = 24 * 60 * 60 * 1000;
const url = '/api/admin/mail/failed';
const failedMails = async () => {
  const res = await t.app.inject({ url, headers: bearer(admin.token) });
  expect(res.statusCode).toBe(200);
  return res.json() as { mails: FailedMail[]; total: number };
};

/**
 * A mail server that refuses `gone@…` at RCPT TO, as nodemailer reports it, is unreachable
 * for `late@…`, holds `later@…` back for now, and takes everything else.
 */
const transport: MailTransport = {
  kind: 'smtp',
  async send(m) {
    if (m.to.startsWith('gone@'))
      throw Object.assign(new Error("Can't send mail - all recipients were rejected"), {
        code: 'EENVELOPE',
        command: 'RCPT TO',
        responseCode: 550,
        response: `550 5.1.1 <${m.to}>: user unknown`,
      });
    if (m.to.startsWith('late@') || m.to.startsWith('later@'))
      throw Object.assign(new Error('connect ECONNREFUSED 192.0.2.1:587'), {
        code: 'ESOCKET',
        command: 'CONN',
      });
    return {};
  },
  close() {},
};

const enqueue = (key: string, to: string, subject: string, at: Date) =>
  t.app.container.repos.outbox.enqueue(
    { idempotencyKey: key, to, subject, text: 'secret body: https://example.com/confirm/abc' },
    at.toISOString(),
  );

beforeAll(async () => {
  t = await createTestApp();
  admin = await seedUser(t, { role: 'admin' });
  user = await seedUser(t);
  const now = t.clock.now();
  await enqueue('alert-n1', 'gone@example.com', 'Rex is in danger', now);
  await enqueue('confirm-u1', 'late@example.com', 'Confirm your e-mail', new Date(+now - DAY_MS));
  await enqueue('digest-u2-daily-x', 'later@example.com', 'Your daily digest', now);
  await enqueue('collar-setup-a1', 'fine@example.com', 'Your collar is ready', now);
  const worker = new OutboxWorker(
    t.app.container.repos.outbox,
    transport,
    t.app.log,
    'test.local',
    1_000,
    () => t.clock.now(),
  );
  await worker.drain();
});
afterAll(() => t.close());

describe('GET /api/admin/mail/failed', () => {
  it('rejects a request without a token', async () => {
    expectError(await t.app.inject({ url }), 401);
  });

  it('refuses a user who is not an admin', async () => {
    expectError(await t.app.inject({ url, headers: bearer(user.token) }), 403);
  });

  it('shows an admin the mail refused for its recipient, with the mail server’s answer', async () => {
    const { mails } = await failedMails();
    const gone = mails.find((m) => m.recipient === 'gone@example.com');
    expect(gone).toEqual({
      id: expect.any(String),
      recipient: 'gone@example.com',
      subject: 'Rex is in danger',
      kind: 'alert',
      created_at: expect.any(String),
      failed_at: expect.any(String),
      attempts: 1,
      reason: '550 5.1.1 <gone@example.com>: user unknown',
    });
    // Given up at its first attempt, after it was queued.
    const waited = Date.parse(gone!.failed_at!) - Date.parse(gone!.created_at);
    expect(waited).toBeGreaterThanOrEqual(0);
    expect(waited).toBeLessThan(60_000);
  });

  it('shows mail given up after a day of retries as such, with the last failure', async () => {
    const { mails } = await failedMails();
    const late = mails.find((m) => m.recipient === 'late@example.com');
    expect(late).toMatchObject({ kind: 'confirmation', subject: 'Confirm your e-mail' });
    expect(late!.reason).toBe(
      'gave up after a day of retries (last: connect ECONNREFUSED 192.0.2.1:587)',
    );
  });

  it('lists neither mail still retried nor mail sent, and never a body', async () => {
    const res = await t.app.inject({ url, headers: bearer(admin.token) });
    const { mails, total } = res.json() as { mails: FailedMail[]; total: number };
    expect(mails.map((m) => m.recipient).sort()).toEqual(['gone@example.com', 'late@example.com']);
    expect(total).toBe(2);
    expect(res.body).not.toContain('secret body');
    const rows = await t.app.container.db
      .selectFrom('outbox')
      .select(['to_address', 'status'])
      .where('to_address', 'in', ['later@example.com', 'fine@example.com'])
      .orderBy('to_address')
      .execute();
    expect(rows).toEqual([
      { to_address: 'fine@example.com', status: 'sent' },
      { to_address: 'later@example.com', status: 'pending' },
    ]);
  });

  it('lists the most recently given-up mail first, and mail given up before the reason was kept by its last error', async () => {
    const { db } = t.app.container;
    const at = t.clock.now().getTime();
    await enqueue('digest-old', 'old@example.com', 'Old digest', new Date(at - 2 * DAY_MS));
    await db
      .updateTable('outbox')
      .set({ status: 'failed', attempts: 40, last_error: 'Greeting never received' })
      .where('idempotency_key', '=', 'digest-old')
      .execute();
    await db
      .updateTable('outbox')
      .set({ failed_at: new Date(at - 60_000).toISOString() })
      .where('to_address', '=', 'late@example.com')
      .execute();
    const { mails, total } = await failedMails();
    expect(mails.map((m) => m.recipient)).toEqual([
      'gone@example.com',
      'late@example.com',
      'old@example.com',
    ]);
    expect(mails[2]).toMatchObject({
      kind: 'digest',
      failed_at: null,
      attempts: 40,
      reason: 'Greeting never received',
    });
    expect(total).toBe(3);
  });
});

describe('POST /api/admin/mail/{id}/retry', () => {
  const retry = (id: string, token?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/admin/mail/${id}/retry`,
      ...(token ? { headers: bearer(token) } : {}),
    });
  const idOf = async (to: string) =>
    (
      await t.app.container.db
        .selectFrom('outbox')
        .select('id')
        .where('to_address', '=', to)
        .executeTakeFirstOrThrow()
    ).id;

  it('rejects a request without a token, and a user who is not an admin', async () => {
    const id = await idOf('gone@example.com');
    expectError(await retry(id), 401);
    expectError(await retry(id, user.token), 403);
    expect((await failedMails()).mails.map((m) => m.id)).toContain(id);
  });

  it('puts a given-up mail back in the queue, due now with a new day of retries', async () => {
    const id = await idOf('late@example.com');
    const res = await retry(id, admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id, status: 'pending' });
    const row = await t.app.container.db
      .selectFrom('outbox')
      .select([
        'status',
        'attempts',
        'failed_at',
        'failure_reason',
        'next_attempt_at',
        'created_at',
      ])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      status: 'pending',
      attempts: 0,
      failed_at: null,
      failure_reason: null,
    });
    expect(row.next_attempt_at).toBe(row.created_at);
    expect(t.clock.now().getTime() - Date.parse(row.created_at)).toBeLessThan(60_000);
    expect((await failedMails()).mails.map((m) => m.id)).not.toContain(id);
  });

  it('answers 404 for a mail that is not given up (pending, sent) or does not exist', async () => {
    for (const id of [
      await idOf('later@example.com'),
      await idOf('fine@example.com'),
      '00000000-0000-4000-8000-000000000000',
    ])
      expectError(await retry(id, admin.token), 404, 'No undelivered mail with this id');
  });
});
