import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { OutboxWorker, classifyFailure } from '../../src/services/outbox-worker.js';
import type { MailMessage, MailTransport } from '../../src/services/mail-transport.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const now = () => t.clock.now();
const enqueue = async (n: number, tag: string) => {
  const at = now().toISOString();
  for (let i = 0; i < n; i++)
    await t.app.container.repos.outbox.enqueue(
      { idempotencyKey: `${tag}-${i}`, to: `${tag}-${i}@example.com`, subject: 's', text: 'x' },
      at,
    );
};
const rowsOf = (tag: string) =>
  t.app.container.db
    .selectFrom('outbox')
    .selectAll()
    .where('idempotency_key', 'like', `${tag}-%`)
    .execute();

/** A transport that yields to the event loop on every send, so workers interleave. */
function slowTransport(sink: MailMessage[]): MailTransport {
  return {
    kind: 'file',
    async send(m) {
      await new Promise((r) => setImmediate(r));
      sink.push(m);
      await new Promise((r) => setImmediate(r));
      return {};
    },
    close() {},
  };
}
const worker = (transport: MailTransport) =>
  new OutboxWorker(t.app.container.repos.outbox, transport, t.app.log, 'test.local', 1_000, now);

describe('the mail outbox worker', () => {
  // Truly concurrent on PostgreSQL (two pooled connections); on SQLite the same code runs
  // interleaved on one connection. Either way each row must go out once.
  it('sends each row once when two workers drain one database at the same time', async () => {
    await enqueue(30, 'twice');
    const sent: MailMessage[] = [];
    const [a, b] = await Promise.all([
      worker(slowTransport(sent)).drain(),
      worker(slowTransport(sent)).drain(),
    ]);
    const mine = sent.filter((m) => m.to.startsWith('twice-'));
    expect(mine).toHaveLength(30);
    expect(new Set(mine.map((m) => m.to)).size).toBe(30);
    expect(a + b).toBe(30);
    expect((await rowsOf('twice')).every((r) => r.status === 'sent')).toBe(true);
  });

  it('on stop, finishes the row being sent and starts no other', async () => {
    await enqueue(3, 'stop');
    const sent: MailMessage[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inSend = new Promise<void>((r) => (entered = r));
    const w = worker({
      kind: 'file',
      async send(m) {
        entered();
        await gate;
        sent.push(m);
        return {};
      },
      close() {},
    });
    const draining = w.drain();
    await inSend;
    const stopping = w.stop();
    release();
    await Promise.all([draining, stopping]);
    const rows = await rowsOf('stop');
    expect(sent).toHaveLength(1);
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(1);
    // The other two are untouched: pending and due now, not leased to a stopped worker.
    const pending = rows.filter((r) => r.status === 'pending');
    expect(pending).toHaveLength(2);
    for (const r of pending) expect(r.next_attempt_at <= now().toISOString()).toBe(true);
  });

  it('a row claimed by a worker that died is sent again once its lease has ended', async () => {
    await enqueue(1, 'lease');
    const [row] = await rowsOf('lease');
    const lease = new Date(now().getTime() + 5 * 60 * 1000).toISOString();
    expect(await t.app.container.repos.outbox.claim(row!, lease, 'gone')).toBe(true);
    expect(await t.app.container.repos.outbox.claim(row!, lease, 'gone')).toBe(false);
    const sent: MailMessage[] = [];
    await worker(slowTransport(sent)).drain();
    expect(sent.filter((m) => m.to.startsWith('lease-'))).toHaveLength(0);
    t.clock.advance(5 * 60 * 1000 + 1);
    await worker(slowTransport(sent)).drain();
    expect(sent.filter((m) => m.to.startsWith('lease-'))).toHaveLength(1);
  });

  it('keeps retrying through an outage of hours, and gives a mail up only after a day', async () => {
    await enqueue(1, 'outage');
    let up = false;
    const sent: MailMessage[] = [];
    const w = worker({
      kind: 'smtp',
      async send(m) {
        if (!up) throw new Error('connect ECONNREFUSED');
        sent.push(m);
        return {};
      },
      close() {},
    });
    // Six hours down: every due retry fails, and the row stays pending.
    for (let minutes = 0; minutes < 6 * 60; minutes += 10) {
      await w.drain();
      t.clock.advance(10 * 60 * 1000);
    }
    const [during] = await rowsOf('outage');
    expect(during!.status).toBe('pending');
    expect(during!.attempts).toBeGreaterThan(8);
    up = true;
    await w.drain();
    expect(sent.filter((m) => m.to.startsWith('outage-'))).toHaveLength(1);

    await enqueue(1, 'dead');
    up = false;
    for (let hours = 0; hours <= 25; hours++) {
      await w.drain();
      t.clock.advance(60 * 60 * 1000);
    }
    const [dead] = await rowsOf('dead');
    expect(dead!.status).toBe('failed');
  });

  it('gives a mail up at once when the mail server refuses its recipient for good (5xx after RCPT)', async () => {
    await enqueue(1, 'refused');
    const w = worker({
      kind: 'smtp',
      async send() {
        throw Object.assign(new Error('550 mailbox unavailable'), {
          responseCode: 550,
          command: 'RCPT TO',
        });
      },
      close() {},
    });
    await w.drain();
    const [row] = await rowsOf('refused');
    expect(row!.status).toBe('failed');
    expect(row!.last_error).toMatch(/550/);
  });

  it('retries a 5xx that is not about the mail: a 554 greeting, a 535 login, a refused sender', async () => {
    await enqueue(3, 'not-final');
    const refusals = [
      { responseCode: 554, command: 'CONN', code: 'EPROTOCOL' },
      { responseCode: 535, command: 'AUTH PLAIN', code: 'EAUTH' },
      { responseCode: 550, command: 'MAIL FROM', code: 'EENVELOPE' },
    ];
    let i = 0;
    const w = worker({
      kind: 'smtp',
      async send() {
        throw Object.assign(new Error('refused'), refusals[i++ % refusals.length]);
      },
      close() {},
    });
    await w.drain();
    const rows = await rowsOf('not-final');
    expect(rows.map((r) => [r.status, r.attempts])).toEqual([
      ['pending', 1],
      ['pending', 1],
      ['pending', 1],
    ]);
  });
});

describe('which mail server answers are final', () => {
  const err = (fields: Record<string, unknown>) => Object.assign(new Error('x'), fields);
  it('only a permanent answer to the recipient (RCPT TO) or the mail (DATA)', () => {
    expect(classifyFailure(err({ responseCode: 550, command: 'RCPT TO' }))).toBe(
      'recipient_refused',
    );
    expect(classifyFailure(err({ responseCode: 554, command: 'DATA' }))).toBe('recipient_refused');
    expect(classifyFailure(err({ responseCode: 552, command: 'DATA' }))).toBe('recipient_refused');
    expect(
      classifyFailure(
        err({ responseCode: 550, command: 'RCPT TO', response: '550 5.1.1 No such user' }),
      ),
    ).toBe('recipient_refused');
  });
  it('a policy refusal (enhanced status 5.7.x) is not final: every mail would meet it', () => {
    for (const response of [
      '550 5.7.1 Relaying denied',
      '554 5.7.1 Sender address rejected: Access denied',
      '550-5.7.26 Unauthenticated email is not accepted',
    ])
      expect(
        classifyFailure(
          err({ responseCode: Number(response.slice(0, 3)), command: 'RCPT TO', response }),
        ),
        response,
      ).toBe('policy');
  });
  it('everything else is retried: connection, greeting, login, timeouts, 4xx, 503', () => {
    const retried: [Record<string, unknown>, string][] = [
      [{ responseCode: 554, command: 'CONN', code: 'EPROTOCOL' }, 'unavailable'],
      [{ responseCode: 421, command: 'CONN' }, 'unavailable'],
      [{ code: 'ECONNECTION', command: 'CONN' }, 'unavailable'],
      [{ code: 'ESOCKET', command: 'CONN' }, 'unavailable'],
      [{ code: 'ETIMEDOUT', command: 'CONN' }, 'unavailable'],
      [{ code: 'EDNS', command: 'CONN' }, 'unavailable'],
      [{ responseCode: 535, command: 'AUTH PLAIN', code: 'EAUTH' }, 'authentication'],
      [{ responseCode: 530, command: 'MAIL FROM', code: 'EENVELOPE' }, 'unavailable'],
      [{ responseCode: 550, command: 'MAIL FROM', code: 'EENVELOPE' }, 'unavailable'],
      [{ responseCode: 450, command: 'RCPT TO', code: 'EENVELOPE' }, 'unavailable'],
      [{ responseCode: 503, command: 'DATA', code: 'EENVELOPE' }, 'unavailable'],
      [{}, 'unavailable'],
    ];
    for (const [fields, kind] of retried)
      expect(classifyFailure(err(fields)), JSON.stringify(fields)).toBe(kind);
  });
});
