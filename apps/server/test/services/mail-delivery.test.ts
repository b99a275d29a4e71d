import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/env.js';
import { openDatabase } from '../../src/db/index.js';
import { CLAIM_LEASE_MS, retryDelayMs } from '../../src/services/outbox-worker.js';
import type { MailMessage } from '../../src/services/mail-transport.js';
import {
  MutableClock,
  TEST_PASSWORD,
  createPgSchema,
  createTestApp,
  memoryTransport,
  usePostgres,
  type TestApp,
} from '../helpers/app.js';
import { headerOf, startSmtp, type TestSmtp } from '../helpers/smtp.js';

/**
 * RES-11: alert mail through a real SMTP server that refuses the way real ones do. An outage
 * of the server, a 554 greeting or a refused login is retried like any outage; only a refusal
 * of the recipient is final; and a restart sends what it had claimed at once.
 */
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(() => smtp.close());

/** An app that sends through `smtp` with the real transport, logging in as mailer/`pass`. */
const appWithSmtp = (pass = 'mail-password') =>
  createTestApp({
    env: {
      SMTP_URL: `smtp://mailer:${pass}@127.0.0.1:${smtp.port}`,
      METRICS_TOKEN: 'metrics-token-0123456789',
    },
    buildOptions: { mailTransport: undefined },
  });

let n = 0;
async function queue(t: TestApp, to: string): Promise<string> {
  const key = `delivery-${++n}-${Date.now()}`;
  await t.app.container.repos.outbox.enqueue(
    { idempotencyKey: key, to, subject: 'Heat alert', text: 'Rex is too hot' },
    t.clock.now().toISOString(),
  );
  return key;
}
const rowOf = (t: TestApp, key: string) =>
  t.app.container.db
    .selectFrom('outbox')
    .selectAll()
    .where('idempotency_key', '=', key)
    .executeTakeFirstOrThrow();
const receivedBy = (to: string) => smtp.received.filter((m) => m.to.includes(to));
/** The worker's next round, once the retry it scheduled is due. */
async function nextRound(t: TestApp, attempts: number) {
  t.clock.advance(retryDelayMs(attempts) + 1);
  await t.app.container.outboxWorker.drain();
}
const logged = (t: TestApp, msg: RegExp) =>
  t
    .logs()
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => typeof l.msg === 'string' && msg.test(l.msg));

describe('mail through a mail server that refuses (RES-11)', () => {
  it('a 554 greeting is retried with backoff, and the mail arrives once the server recovers', async () => {
    const t = await appWithSmtp();
    try {
      smtp.greeting = 554;
      const key = await queue(t, 'greeting@example.com');
      const before = smtp.refusals.greetings;
      await t.app.container.outboxWorker.drain();
      await nextRound(t, 1);
      await nextRound(t, 2);
      expect(smtp.refusals.greetings - before).toBeGreaterThanOrEqual(3);
      const during = await rowOf(t, key);
      expect(during.status).toBe('pending');
      expect(during.attempts).toBe(3);
      expect(during.last_error).toMatch(/554/);
      expect(logged(t, /^mail delivery failed: retried later$/).at(-1)).toMatchObject({
        failure: 'unavailable',
        responseCode: 554,
        failed: false,
      });

      smtp.greeting = null;
      await nextRound(t, 3);
      expect(receivedBy('greeting@example.com')).toHaveLength(1);
      expect(headerOf(receivedBy('greeting@example.com')[0]!, 'Message-ID')).toContain(key);
      expect((await rowOf(t, key)).status).toBe('sent');
    } finally {
      smtp.greeting = null;
      await t.close();
    }
  });

  it('a refused login (535, a rotated password) is retried, and the mail arrives once it is right', async () => {
    const t = await appWithSmtp('old-password');
    try {
      smtp.password = 'new-password';
      const key = await queue(t, 'login@example.com');
      const before = smtp.refusals.logins;
      await t.app.container.outboxWorker.drain();
      await nextRound(t, 1);
      expect(smtp.refusals.logins - before).toBeGreaterThanOrEqual(2);
      const during = await rowOf(t, key);
      expect(during.status).toBe('pending');
      expect(during.last_error).toMatch(/535/);
      expect(logged(t, /^mail server refused the login: mail retried later/).at(-1)).toMatchObject({
        failure: 'authentication',
        responseCode: 535,
      });

      // The operator puts the old password back (or SMTP_URL is updated and the server restarted).
      smtp.password = 'old-password';
      await nextRound(t, 2);
      expect(receivedBy('login@example.com')).toHaveLength(1);
      expect((await rowOf(t, key)).status).toBe('sent');
    } finally {
      smtp.password = null;
      await t.close();
    }
  });

  it('a policy refusal at RCPT TO (550 5.7.1 Relaying denied), met by every mail, is retried, and the mail arrives after', async () => {
    const t = await appWithSmtp();
    try {
      smtp.relayDenied = true;
      const keys = [await queue(t, 'relay-1@example.com'), await queue(t, 'relay-2@example.com')];
      await t.app.container.outboxWorker.drain();
      await nextRound(t, 1);
      for (const key of keys) {
        const row = await rowOf(t, key);
        expect(row.status).toBe('pending');
        expect(row.attempts).toBeGreaterThanOrEqual(2);
        expect(row.last_error).toMatch(/5\.7\.1/);
      }
      expect(logged(t, /^mail server refused the mail by policy/).at(-1)).toMatchObject({
        level: 40,
        failure: 'policy',
        responseCode: 550,
        command: 'RCPT TO',
        failed: false,
      });

      // The mail server's relay settings are mended.
      smtp.relayDenied = false;
      await nextRound(t, 2);
      for (const key of keys) expect((await rowOf(t, key)).status).toBe('sent');
      expect(receivedBy('relay-1@example.com')).toHaveLength(1);
      expect(receivedBy('relay-2@example.com')).toHaveLength(1);
    } finally {
      smtp.relayDenied = false;
      await t.close();
    }
  });

  it('a 550 after RCPT TO is final: given up at once, logged, and counted for the admin', async () => {
    const t = await appWithSmtp();
    try {
      smtp.refused.add('nobody@example.com');
      const gone = await queue(t, 'nobody@example.com');
      const fine = await queue(t, 'somebody@example.com');
      await t.app.container.outboxWorker.drain();

      const row = await rowOf(t, gone);
      expect(row.status).toBe('failed');
      expect(row.attempts).toBe(1);
      expect(row.last_error).toMatch(/550/);
      expect(receivedBy('somebody@example.com')).toHaveLength(1);
      expect((await rowOf(t, fine)).status).toBe('sent');
      const line = logged(t, /^mail refused for its recipient by the mail server/).at(-1);
      expect(line).toMatchObject({
        level: 50,
        mailId: row.id,
        failure: 'recipient_refused',
        responseCode: 550,
        command: 'RCPT TO',
        failed: true,
      });
      // No further attempt, however long it waits.
      t.clock.advance(60 * 60 * 1000);
      await t.app.container.outboxWorker.drain();
      expect((await rowOf(t, gone)).attempts).toBe(1);

      const metrics = await t.app.inject({
        url: '/metrics',
        headers: { authorization: 'Bearer metrics-token-0123456789' },
      });
      expect(metrics.body).toMatch(/^pawguard_outbox_failed 1$/m);
    } finally {
      smtp.refused.clear();
      await t.close();
    }
  });
});

describe('a restart', () => {
  it('logs the instance id its mail claims carry, so two servers sharing one can be told', async () => {
    const t = await createTestApp();
    try {
      // What the worker's first round does after start.
      await t.app.container.outboxWorker.releaseOwnClaims();
      const id = fs.readFileSync(path.join(t.dataDir, 'instance-id'), 'utf8').trim();
      expect(logged(t, /^mail worker started/)).toEqual([
        expect.objectContaining({ event: 'outbox.instance', instance: id }),
      ]);
    } finally {
      await t.close();
    }
  });

  it('sends at once what this instance had claimed and not sent when it died, not after the lease', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-restart-'));
    const pg = usePostgres ? await createPgSchema() : undefined;
    const open = () =>
      openDatabase({
        dataDir,
        ...(pg ? { databaseUrl: process.env.TEST_DATABASE_URL!, pgSchema: pg.schema } : {}),
      });
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ADMIN_EMAIL: 'admin@example.com',
      ADMIN_PASSWORD: TEST_PASSWORD,
      JWT_SECRET: 'test-secret-that-is-long-enough-0123456789abcdef',
    });
    const clock = new MutableClock();
    const build = (db: Awaited<ReturnType<typeof open>>, sink: MailMessage[], workers: boolean) =>
      buildApp({
        config,
        db,
        clock,
        logStream: new PassThrough(),
        mailTransport: memoryTransport(sink),
        startWorkers: workers,
      });
    try {
      // The first life: a CRITICAL alert mail is claimed and being sent when the process dies.
      const firstDb = await open();
      const first = await build(firstDb, [], false);
      await first.ready();
      const { outbox } = first.container.repos;
      const now = clock.now().toISOString();
      await outbox.enqueue(
        {
          idempotencyKey: 'alert-critical',
          to: 'owner@example.com',
          subject: 'CRITICAL',
          text: 't',
        },
        now,
      );
      await outbox.enqueue(
        { idempotencyKey: 'alert-elsewhere', to: 'other@example.com', subject: 's', text: 't' },
        now,
      );
      const rows = await first.container.db.selectFrom('outbox').selectAll().execute();
      const lease = new Date(clock.now().getTime() + CLAIM_LEASE_MS).toISOString();
      const mine = rows.find((r) => r.idempotency_key === 'alert-critical')!;
      const theirs = rows.find((r) => r.idempotency_key === 'alert-elsewhere')!;
      expect(await outbox.claim(mine, lease, firstDb.instanceId)).toBe(true);
      // Another instance, alive on the same database, is sending this one: not ours to free.
      expect(await outbox.claim(theirs, lease, 'another-instance')).toBe(true);
      await first.close();
      await firstDb.close();

      // The second life, on the same DATA_DIR: the same instance, its workers started.
      const secondDb = await open();
      expect(secondDb.instanceId).toBe(firstDb.instanceId);
      const sent: MailMessage[] = [];
      const second = await build(secondDb, sent, true);
      try {
        await second.ready();
        await expect
          .poll(() => sent.map((m) => m.to), { timeout: 10_000, interval: 50 })
          .toContain('owner@example.com');
        // The same Message-ID as the first attempt had: a duplicate is recognisable as one.
        expect(sent.find((m) => m.to === 'owner@example.com')!.messageId).toBe(
          '<alert-critical@localhost>',
        );
        expect(sent.some((m) => m.to === 'other@example.com')).toBe(false);
        const after = await second.container.db
          .selectFrom('outbox')
          .select(['idempotency_key', 'status', 'claimed_by'])
          .orderBy('idempotency_key')
          .execute();
        expect(after).toEqual([
          { idempotency_key: 'alert-critical', status: 'sent', claimed_by: null },
          { idempotency_key: 'alert-elsewhere', status: 'pending', claimed_by: 'another-instance' },
        ]);
      } finally {
        await second.close();
        await secondDb.close();
      }
    } finally {
      await pg?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
