import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { usePostgres } from '../helpers/app.js';
import { killHard, startServerProcess } from '../helpers/server-process.js';
import { headerOf, startSmtp, type TestSmtp } from '../helpers/smtp.js';

/**
 * RES-11 with a real process: the server is killed (-9) while the mail server holds a mail it
 * has not accepted yet, and started again on the same DATA_DIR. The mail it had claimed goes
 * out at once, not when its 5-minute claim would have ended.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-mail-crash-'));
let child: ChildProcess | null = null;
let smtp: TestSmtp | undefined;

afterAll(async () => {
  child?.kill('SIGKILL');
  await smtp?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function start(smtpUrl: string): Promise<string> {
  let base: string;
  ({ child, base } = await startServerProcess(dataDir, {
    SMTP_URL: smtpUrl,
    ADMIN_EMAIL: 'admin@mail-crash.test',
    ADMIN_PASSWORD: 'mail-crash-admin-password',
  }));
  return base;
}

async function kill(): Promise<void> {
  const c = child!;
  child = null;
  await killHard(c);
}

describe.skipIf(usePostgres)('kill -9 while a mail is being sent (SQLite)', () => {
  it('the restarted server sends the mail it had claimed at once, with the same Message-ID', async () => {
    smtp = await startSmtp();
    const server = smtp;
    server.hang = true;
    const base = await start(server.url);
    // Sign-up queues a confirmation mail; the worker claims it and the mail server holds it.
    const email = 'crashed-mid-send@example.com';
    const res = await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'a long enough password', name: 'Crash' }),
    });
    expect(res.status).toBe(201);
    await expect.poll(() => server.hanging, { timeout: 10_000, interval: 20 }).toBeGreaterThan(0);
    await kill();

    server.hang = false;
    const restarted = Date.now();
    await start(server.url);
    await expect
      .poll(() => server.received.filter((m) => m.to.includes(email)).length, {
        timeout: 20_000,
        interval: 50,
      })
      .toBe(1);
    // Seconds, not the 5-minute claim.
    expect(Date.now() - restarted).toBeLessThan(60_000);
    const mail = server.received.find((m) => m.to.includes(email))!;
    expect(headerOf(mail, 'Message-ID')).toMatch(/^<confirm/);
  });
});
