import net from 'node:net';
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  EventBusUnavailableError,
  isAccessMessage,
  type AccessMessage,
  type BusMessage,
} from '../../src/services/event-bus.js';
import { RedisEventBus, redisChannel } from '../../src/services/redis-event-bus.js';
import { until } from '../helpers/sse.js';
import { testRedisUrl, workerScope } from '../helpers/redis.js';

const redisUrl = await testRedisUrl('the Redis event bus tests');

/** A logger that keeps what was logged, by level. */
function memoryLog() {
  const lines: { level: string; msg: string }[] = [];
  const at =
    (level: string) =>
    (...args: unknown[]) =>
      lines.push({ level, msg: String(args.find((a) => typeof a === 'string') ?? '') });
  const log = {
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    error: at('error'),
    trace: at('trace'),
    fatal: at('fatal'),
    child: () => log,
  };
  return { log: log as unknown as FastifyBaseLogger, lines };
}

/** A port nothing listens on: connections to it are refused. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A TCP relay to Redis that can be stopped: Redis as unreachable as after a network failure. */
async function proxyTo(url: string): Promise<{ url: string; stop(): Promise<void> }> {
  const target = new URL(url);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', drop).on('close', drop);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}${target.pathname}`,
    stop: async () => {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

const device = (n: number): BusMessage => ({
  audience: ['owner-1'],
  event: { type: 'device', device: `device-${n}`, change: 'updated' },
});
const resync: BusMessage = { audience: [], event: { type: 'resync' } };
const isResync = (m: BusMessage) => m.event.type === 'resync';
const isDevice = (n: number) => (m: BusMessage) =>
  m.event.type === 'device' && m.event.device === `device-${n}`;

describe('the Redis channel', () => {
  it('is named after the PostgreSQL schema and the Redis database, as LISTEN/NOTIFY is after the schema', () => {
    expect(redisChannel(undefined, 0)).toBe('pawguard_events');
    expect(redisChannel('t_AB12', 0)).toBe('pawguard_events_t_ab12');
    expect(redisChannel('t_ab12', 3)).toBe('pawguard_events_t_ab12:3');
  });
});

describe('RedisEventBus start-up', () => {
  it('fails within its deadline, naming REDIS_URL and not its password, when Redis does not answer', async () => {
    const url = `redis://pawguard:secret-word@127.0.0.1:${await closedPort()}`;
    const { log } = memoryLog();
    const bus = new RedisEventBus(url, undefined, log, { startTimeoutMs: 300 });
    const failure = await bus.start().catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(EventBusUnavailableError);
    expect((failure as Error).message).toMatch(/^REDIS_URL: Redis at redis:\/\/127\.0\.0\.1:\d+ /);
    expect((failure as Error).message).toContain('ECONNREFUSED');
    expect((failure as Error).message).not.toContain('secret-word');
    // Both connections are already given up: closing again ends at once.
    await bus.close();
  });
});

describe.skipIf(!redisUrl)('RedisEventBus between instances', () => {
  const scope = workerScope();
  let admin: Redis;
  const buses: RedisEventBus[] = [];
  beforeAll(() => {
    admin = new Redis(redisUrl!);
  });
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((b) => b.close()));
  });
  afterAll(() => admin.quit());

  /** An instance's bus, started, with everything it delivers collected. */
  async function instance(on = scope) {
    const { log, lines } = memoryLog();
    const bus = new RedisEventBus(redisUrl!, on, log);
    buses.push(bus);
    await bus.start();
    const got: BusMessage[] = [];
    const access: AccessMessage[] = [];
    bus.subscribe((m) => {
      if (isAccessMessage(m)) access.push(m);
      else got.push(m);
    });
    return { bus, got, access, lines };
  }
  /** CLIENT KILL, by name, of one of a bus's two connections: as if the network dropped it. */
  async function kill(bus: RedisEventBus, which: 'pub' | 'sub') {
    const list = (await admin.client('LIST')) as string;
    const line = list
      .split('\n')
      .find((l) => l.includes(` name=pawguard-events-${which}-${bus.instance} `));
    const id = line?.match(/^id=(\d+) /)?.[1];
    if (!id) throw new Error(`no ${which} connection of ${bus.instance}`);
    await admin.client('KILL', 'ID', id);
  }

  it('delivers its own events at once, sends them to the others, and never back to itself', async () => {
    const a = await instance();
    const b = await instance();
    const elsewhere = await instance(workerScope());
    a.bus.publish([device(1)]);
    expect(a.got).toEqual([device(1)]); // at once, before any round trip to Redis
    await until(() => b.got.some(isDevice(1)));
    // Redis delivers in the order it received: once B's answer is at A and at the other
    // scope's bus, an echo of A's own event would have come before it.
    b.bus.publish([device(2)]);
    await until(() => a.got.some(isDevice(2)));
    await admin.publish(
      elsewhere.bus.channel,
      JSON.stringify({ from: 'x', messages: [device(3)] }),
    );
    await until(() => elsewhere.got.some(isDevice(3)));
    expect(a.got).toEqual([device(1), device(2)]);
    expect(b.got).toEqual([device(1), device(2)]);
    expect(elsewhere.got).toEqual([device(3)]);
  });

  it('carries an access change (a logout, a role change) to the others as it does events', async () => {
    const a = await instance();
    const b = await instance();
    const change: AccessMessage = { access: { sessions: ['session-1'], users: ['user-1'] } };
    a.bus.publish([device(4), change]);
    expect(a.access).toEqual([change]);
    await until(() => b.access.length === 1);
    expect(b.access).toEqual([change]);
    expect(b.got).toEqual([device(4)]);
  });

  it('sends a large batch as several messages, every event arriving once and in order', async () => {
    const a = await instance();
    const b = await instance();
    const raw = new Redis(redisUrl!);
    const payloads: string[] = [];
    raw.on('message', (_channel: string, payload: string) => payloads.push(payload));
    await raw.subscribe(a.bus.channel);
    try {
      const batch = Array.from({ length: 2_000 }, (_, n) => device(n));
      a.bus.publish(batch);
      await until(() => b.got.length === batch.length);
      expect(b.got).toEqual(batch);
      expect(payloads.length).toBeGreaterThan(1);
      for (const p of payloads) expect(p.length).toBeLessThan(70 * 1024);
    } finally {
      raw.disconnect();
    }
  });

  it('after its subscriber connection is lost and regained, delivers resync here and sends one to the others', async () => {
    const a = await instance();
    const b = await instance();
    await kill(a.bus, 'sub');
    await until(() => a.got.some(isResync));
    await until(() => b.got.some(isResync));
    expect(a.got).toEqual([resync]);
    expect(b.got).toEqual([resync]);
    expect(a.lines).toContainEqual({
      level: 'warn',
      msg: 'live events connection to Redis lost; reconnecting',
    });
    // Subscribed again: the others' events reach it.
    b.bus.publish([device(4)]);
    await until(() => a.got.some(isDevice(4)));
  });

  it('never throws a failed publish into the caller: logs it once, and the others resync once it is back', async () => {
    const a = await instance();
    const b = await instance();
    await kill(a.bus, 'pub');
    // Sent on the connection Redis has just closed: each PUBLISH fails.
    expect(() => a.bus.publish([device(5)])).not.toThrow();
    expect(() => a.bus.publish([device(6)])).not.toThrow();
    expect(a.got.filter((m) => !isResync(m))).toEqual([device(5), device(6)]);
    await until(() => b.got.some(isResync));
    const warnings = a.lines.filter(
      (l) => l.msg === 'live events not sent to other instances; they resync later',
    );
    expect(warnings).toHaveLength(1);
    a.bus.publish([device(7)]);
    await until(() => b.got.some(isDevice(7)));
  });

  it('ends both connections on close', async () => {
    const a = await instance();
    const named = async () =>
      ((await admin.client('LIST')) as string)
        .split('\n')
        .filter((l) => l.includes(a.bus.instance));
    expect(await named()).toHaveLength(2);
    await a.bus.close();
    // QUIT is answered just before the server drops the connection: bounded wait for that.
    for (let i = 0; i < 250 && (await named()).length; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(await named()).toEqual([]);
  });

  it('closes without hanging while Redis is unreachable and it keeps reconnecting', async () => {
    const proxy = await proxyTo(redisUrl!);
    const { log, lines } = memoryLog();
    const bus = new RedisEventBus(proxy.url, scope, log);
    await bus.start();
    await proxy.stop();
    await until(() =>
      lines.some((l) => l.msg === 'live events connection to Redis lost; reconnecting'),
    );
    await bus.close();
  });
});
