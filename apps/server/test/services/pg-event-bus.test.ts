import { randomUUID } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  EventBusUnavailableError,
  isAccessMessage,
  PgEventBus,
  busPayloads,
  type BusMessage,
} from '../../src/services/event-bus.js';
import { usePostgres } from '../helpers/app.js';
import { until } from '../helpers/sse.js';

/** A device event whose id is `n` after a long name in Japanese: three bytes a character. */
const wide = (n: number): BusMessage => ({
  audience: ['owner-1'],
  event: { type: 'device', device: `${'ポチ'.repeat(120)}-${n}`, change: 'updated' },
});

const parse = (payload: string) => JSON.parse(payload) as { from: string; messages: BusMessage[] };

describe('payloads for the other instances', () => {
  it('hold whole messages, in order, in at most the limit of UTF-8 bytes, however wide the text', () => {
    const messages = Array.from({ length: 40 }, (_, n) => wide(n));
    const payloads = [...busPayloads('instance-a', messages, 7_500)];
    // 40 messages of about 800 bytes (325 characters) each: several payloads, none over.
    expect(payloads.length).toBeGreaterThan(3);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(7_500);
    expect(payloads.every((p) => parse(p).from === 'instance-a')).toBe(true);
    expect(payloads.flatMap((p) => parse(p).messages)).toEqual(messages);
  });

  it('send a message too large for any payload alone, to be refused where it is sent', () => {
    const huge: BusMessage = {
      audience: ['owner-1'],
      event: { type: 'device', device: 'x'.repeat(9_000), change: 'updated' },
    };
    const payloads = [...busPayloads('a', [wide(1), huge, wide(2)], 7_500)];
    expect(payloads.map((p) => parse(p).messages)).toEqual([[wide(1)], [huge], [wide(2)]]);
  });
});

describe('the LISTEN/NOTIFY bus at start', () => {
  it('refuses to start, naming DATABASE_URL, when PostgreSQL cannot be reached', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as net.AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const log = { warn: () => undefined } as unknown as FastifyBaseLogger;
    const bus = new PgEventBus(
      `postgres://u:p@127.0.0.1:${port}/db`,
      undefined,
      async () => {},
      log,
    );
    try {
      await expect(bus.start()).rejects.toThrow(
        /^Live events over PostgreSQL \(LISTEN on DATABASE_URL\) could not start: connect ECONNREFUSED/,
      );
      await expect(bus.start()).rejects.toBeInstanceOf(EventBusUnavailableError);
    } finally {
      await bus.close();
    }
  });
});

describe('NOTIFYs of one instance', () => {
  it('go one after another, and one that never finishes is given up on so the next still go', async () => {
    vi.useFakeTimers();
    const sent: string[] = [];
    const warnings: string[] = [];
    const log = {
      warn: (_: unknown, msg: string) => warnings.push(msg),
    } as unknown as FastifyBaseLogger;
    // The first NOTIFY hangs (a stuck connection); the others finish at once.
    const notify = (_channel: string, payload: string) => {
      sent.push(
        parse(payload)
          .messages.map((m) => (m.event as { device: string }).device)
          .join(),
      );
      return sent.length === 1 ? new Promise<void>(() => undefined) : Promise.resolve();
    };
    const bus = new PgEventBus('postgres://unused', 'x', notify, log);
    try {
      bus.publish([wide(1)]);
      bus.publish([wide(2)]);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(sent).toHaveLength(1); // the second waits for the first
      await vi.advanceTimersByTimeAsync(5_000);
      expect(sent.map((d) => d.slice(-2))).toEqual(['-1', '-2']);
      expect(warnings).toEqual(['live event not sent to other instances']);
    } finally {
      const closed = bus.close();
      await vi.advanceTimersByTimeAsync(2_000);
      await closed;
      vi.useRealTimers();
    }
  });
});

describe.runIf(usePostgres)('LISTEN/NOTIFY between two instances', () => {
  const url = process.env.TEST_DATABASE_URL!;
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const warnings: string[] = [];
  const log = {
    warn: (_: unknown, msg: string) => warnings.push(msg),
  } as unknown as FastifyBaseLogger;
  // Each NOTIFY waits a moment first, as on a busy pool: sent side by side, they would arrive
  // in another order.
  const notify = async (channel: string, payload: string) => {
    await new Promise((r) => setTimeout(r, Math.random() * 5));
    await pool.query('select pg_notify($1, $2)', [channel, payload]);
  };
  afterAll(() => pool.end());

  it('carries a batch of events with wide text whole and in order, within the 8,000 bytes PostgreSQL takes', async () => {
    // A channel of this test's own: the schema only names it.
    const schema = `bus_${randomUUID().slice(0, 8)}`;
    const sender = new PgEventBus(url, schema, notify, log);
    const receiver = new PgEventBus(url, schema, notify, log);
    const received: BusMessage[] = [];
    receiver.subscribe((m) => {
      if (!isAccessMessage(m)) received.push(m);
    });
    try {
      await sender.start();
      await receiver.start();
      // Counted in characters, 23 of these would fill a payload: some 18,000 bytes, refused.
      const messages = Array.from({ length: 40 }, (_, n) => wide(n));
      sender.publish(messages);
      await until(() => received.length >= messages.length);
      expect(received).toEqual(messages);
      expect(warnings).toEqual([]);
    } finally {
      await sender.close();
      await receiver.close();
    }
  });
});
