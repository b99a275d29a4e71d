import net from 'node:net';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { ownedCollar } from '../helpers/devices.js';
import { readingRows } from '../helpers/readings.js';
import { until } from '../helpers/sse.js';
import {
  addressKey,
  CONNECT_TIMEOUT_MS,
  connectionCap,
  isVitalsTopicOf,
  MAX_MQTT_PACKET,
  openFileLimit,
} from '../../src/services/mqtt-endpoint.js';
import { INGEST_BUDGET } from '../../src/services/ingest-budget.js';

let t: TestApp;
let admin: SeededUser;
let owner: SeededUser;
let port: number;
const clients: MqttClient[] = [];
beforeAll(async () => {
  // Port 0: the listener takes a free port, never a local broker's 1883.
  t = await createTestApp({ env: { MQTT_PORT: '0' } });
  admin = await seedUser(t, { role: 'admin' });
  owner = await seedUser(t);
  port = t.app.container.mqtt.port!;
});
afterAll(async () => {
  for (const c of clients) c.end(true);
  await t.close();
});

const topic = (deviceId: string) => `pawguard/devices/${deviceId}/vitals`;

/** Connects as a collar; resolves with the client, or rejects with the CONNACK refusal. */
function connect(username: string, password: string, clientId = username): Promise<MqttClient> {
  return new Promise((resolve, reject) => {
    const c = mqtt.connect(`mqtt://127.0.0.1:${port}`, {
      username,
      password,
      clientId,
      reconnectPeriod: 0,
      connectTimeout: 5_000,
      protocolVersion: 4,
    });
    clients.push(c);
    c.once('connect', () => resolve(c));
    c.once('error', (err) => reject(err));
  });
}

const publish = (c: MqttClient, deviceId: string, payload: unknown) =>
  c.publishAsync(topic(deviceId), typeof payload === 'string' ? payload : JSON.stringify(payload), {
    qos: 1,
  });

describe('the MQTT endpoint (MQTT_PORT)', () => {
  it('refuses a wrong key, or another collar’s Device ID, at CONNECT', async () => {
    const c = await ownedCollar(t, admin, owner);
    const other = await ownedCollar(t, admin, owner);
    await expect(connect(c.device_id, 'x'.repeat(43))).rejects.toThrow(/Bad username or password/i);
    await expect(connect(other.device_id, c.device_key)).rejects.toThrow(
      /Bad username or password/i,
    );
  });

  it('refuses a client id that is not the collar’s Device ID, so no collar can push another off', async () => {
    const victim = await ownedCollar(t, admin, owner);
    const other = await ownedCollar(t, admin, owner);
    const connected = await connect(victim.device_id, victim.device_key);
    await expect(connect(other.device_id, other.device_key, victim.device_id)).rejects.toThrow(
      /Identifier rejected/i,
    );
    expect(connected.connected).toBe(true);
    // Its own Device ID with a suffix is fine.
    expect(
      (await connect(other.device_id, other.device_key, `${other.device_id}-fw2`)).connected,
    ).toBe(true);
  });

  it('stores a QoS 1 reading by the time its PUBACK arrives', async () => {
    const c = await ownedCollar(t, admin, owner);
    const client = await connect(c.device_id.toLowerCase(), c.device_key);
    await publish(client, c.device_id, { temperature: 26.5, humidity: 45, battery: 90 });
    const rows = await readingRows(t, c.id);
    expect(rows.map((r) => r.temperature)).toEqual([26.5]);
    const latest = await t.app.inject({
      url: `/api/devices/${c.id}/vitals/latest`,
      headers: bearer(owner.token),
    });
    expect(latest.json().vitals).toMatchObject({ temperature: 26.5, battery: 90 });
  });

  it('counts its readings, refusals and connections in the metrics under transport mqtt', async () => {
    const figure = async (name: string) => {
      const line = (await t.app.container.metrics.text())
        .split('\n')
        .find((l) => l.startsWith(`${name} `));
      return line ? Number(line.split(' ')[1]) : 0;
    };
    const ingested = 'pawguard_readings_ingested_total{transport="mqtt"}';
    const refusedAuth = 'pawguard_ingest_refusals_total{transport="mqtt",reason="unauthenticated"}';
    const refusedBody = 'pawguard_ingest_refusals_total{transport="mqtt",reason="invalid"}';
    const before = {
      ingested: await figure(ingested),
      auth: await figure(refusedAuth),
      body: await figure(refusedBody),
    };
    const c = await ownedCollar(t, admin, owner);
    await expect(connect(c.device_id, 'x'.repeat(43))).rejects.toThrow();
    const client = await connect(c.device_id, c.device_key);
    const now = Date.now();
    await publish(client, c.device_id, [
      { temperature: 24, humidity: 40, timestamp: new Date(now - 60_000).toISOString() },
      { temperature: 25, humidity: 40, timestamp: new Date(now - 30_000).toISOString() },
    ]);
    await publish(client, c.device_id, 'not json');
    expect(await figure(ingested)).toBe(before.ingested + 2);
    expect(await figure(refusedAuth)).toBe(before.auth + 1);
    expect(await figure(refusedBody)).toBe(before.body + 1);
    expect(await figure('pawguard_mqtt_connections')).toBe(t.app.container.mqtt.connections);
    expect(t.app.container.mqtt.connections).toBeGreaterThan(0);
  });

  it('RES-10: takes its topic exactly as documented: the Device ID as printed, nothing trimmed or folded', async () => {
    const c = await ownedCollar(t, admin, owner);
    expect(isVitalsTopicOf(`pawguard/devices/${c.device_id}/vitals`, c.device_id)).toBe(true);
    for (const variant of [
      `pawguard/devices/${c.device_id.toLowerCase()}/vitals`,
      `pawguard/devices/  ${c.device_id}/vitals`,
      `pawguard/devices/${c.device_id} /vitals`,
      `PAWGUARD/devices/${c.device_id}/vitals`,
      `pawguard/devices/${c.device_id}/VITALS`,
      'pawguard/devices/+/vitals',
    ])
      expect(isVitalsTopicOf(variant, c.device_id), variant).toBe(false);
    // Over the wire: a variant closes the connection and stores nothing.
    const client = await connect(c.device_id, c.device_key);
    const closed = new Promise<void>((r) => client.once('close', () => r()));
    client.publish(
      `pawguard/devices/${c.device_id.toLowerCase()}/vitals`,
      JSON.stringify({ temperature: 24.5, humidity: 45 }),
      { qos: 1 },
    );
    await closed;
    expect(await readingRows(t, c.id)).toHaveLength(0);
  });

  it('RES-10: refuses retained publishes, on any topic spelling and with any payload, and keeps no retained message', async () => {
    const c = await ownedCollar(t, admin, owner);
    const id = c.device_id;
    const junk = 'x'.repeat(100_000);
    const attempts: Array<[string, string]> = [
      [topic(id), JSON.stringify({ temperature: 25, humidity: 40 })],
      [topic(id), junk],
      [`pawguard/devices/  ${id}/vitals`, junk],
      [`pawguard/devices/${id.toLowerCase()}/vitals`, junk],
    ];
    for (let round = 0; round < 5; round++) {
      for (const [where, payload] of attempts) {
        const client = await connect(id, c.device_key);
        const closed = new Promise<void>((r) => client.once('close', () => r()));
        client.publish(`${where}${round ? ' '.repeat(round) : ''}`, payload, {
          qos: 1,
          retain: true,
        });
        await closed;
      }
    }
    expect(await t.app.container.mqtt.retainedCount()).toBe(0);
    expect(await readingRows(t, c.id)).toHaveLength(0);
    expect(t.logs().some((l) => l.includes('"reason":"retained"'))).toBe(true);
    // A plain publish right after is taken as usual.
    const client = await connect(id, c.device_key);
    await publish(client, id, { temperature: 26, humidity: 40 });
    expect((await readingRows(t, c.id)).map((r) => r.temperature)).toEqual([26]);
  });

  it('RES-9: keeps at most two connections per collar key: each new one closes the oldest', async () => {
    const c = await ownedCollar(t, admin, owner);
    const opened: MqttClient[] = [];
    for (let i = 1; i <= 10; i++)
      opened.push(await connect(c.device_id, c.device_key, `${c.device_id}-${i}`));
    await until(() => opened.filter((x) => x.connected).length === 2);
    expect(opened.map((x) => x.connected)).toEqual([...Array(8).fill(false), true, true]);
    await publish(opened[9]!, c.device_id, { temperature: 27, humidity: 40 });
    expect((await readingRows(t, c.id)).map((r) => r.temperature)).toEqual([27]);
    expect(t.logs().some((l) => l.includes('mqtt.connection_capped'))).toBe(true);
  });

  it('takes a backlog as a JSON list, like HTTP', async () => {
    const c = await ownedCollar(t, admin, owner);
    const client = await connect(c.device_id, c.device_key);
    const now = Date.now();
    await publish(
      client,
      c.device_id,
      [3, 2, 1].map((s) => ({ temperature: 20 + s, humidity: 40, timestamp: now - s * 1000 })),
    );
    expect((await readingRows(t, c.id)).map((r) => r.temperature)).toEqual([23, 22, 21]);
  });

  it('drops a malformed message with a log line and stores the next one', async () => {
    const c = await ownedCollar(t, admin, owner);
    const client = await connect(c.device_id, c.device_key);
    await publish(client, c.device_id, 'not json at all');
    await publish(client, c.device_id, { temperature: 99, humidity: 40 });
    await publish(client, c.device_id, { temperature: 27, humidity: 40 });
    expect((await readingRows(t, c.id)).map((r) => r.temperature)).toEqual([27]);
    expect(t.logs().filter((l) => l.includes('mqtt.malformed')).length).toBeGreaterThanOrEqual(2);
    expect(client.connected).toBe(true);
  });

  it('refuses a publish to another collar’s topic by closing the connection, storing nothing', async () => {
    const c = await ownedCollar(t, admin, owner);
    const victim = await ownedCollar(t, admin, owner);
    const client = await connect(c.device_id, c.device_key);
    const closed = new Promise<void>((r) => client.once('close', () => r()));
    client.publish(topic(victim.device_id), JSON.stringify({ temperature: 30, humidity: 40 }), {
      qos: 1,
    });
    await closed;
    expect(await readingRows(t, victim.id)).toHaveLength(0);
  });

  it('closes a connection whose packet is over the size limit, storing nothing', async () => {
    const c = await ownedCollar(t, admin, owner);
    const client = await connect(c.device_id, c.device_key);
    const closed = new Promise<void>((r) => client.once('close', () => r()));
    const reading = { temperature: 30, humidity: 40 };
    const huge = JSON.stringify(Array.from({ length: 20_000 }, () => reading));
    expect(huge.length).toBeGreaterThan(MAX_MQTT_PACKET);
    client.publish(topic(c.device_id), huge, { qos: 1 });
    await closed;
    expect(await readingRows(t, c.id)).toHaveLength(0);
    expect(t.logs().some((l) => l.includes('mqtt.packet_too_large'))).toBe(true);
  });

  it('closes a connection as soon as a header declares a packet over the limit, before CONNECT', async () => {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((r) => socket.once('connect', () => r()));
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.on('error', () => {});
    // A CONNECT whose remaining length says 256 MB; the body never follows.
    socket.write(Buffer.from([0x10, 0xff, 0xff, 0xff, 0x7f]));
    await closed;
    expect(socket.destroyed).toBe(true);
  });

  it('lets a collar subscribe to nothing', async () => {
    const c = await ownedCollar(t, admin, owner);
    const client = await connect(c.device_id, c.device_key);
    // The SUBACK refuses it (0x80); the connection stays up for its readings.
    await expect(client.subscribeAsync('pawguard/#', { qos: 1 })).rejects.toThrow(
      /Subscribe error/,
    );
    expect(client.connected).toBe(true);
  });

  it('disconnects a collar at once when its owner releases it', async () => {
    const c = await ownedCollar(t, admin, owner);
    const client = await connect(c.device_id, c.device_key);
    const closed = new Promise<void>((r) => client.once('close', () => r()));
    await t.app.inject({
      method: 'DELETE',
      url: `/api/devices/${c.id}`,
      headers: bearer(owner.token),
    });
    await closed;
    await until(
      () => t.app.container.mqtt.connections === clients.filter((x) => x.connected).length,
    );
  });
});

describe('the MQTT endpoint’s caps (MQTT_MAX_CONNECTIONS, _PER_ADDRESS, the packet limit)', () => {
  let capped: TestApp;
  let capPort: number;
  beforeAll(async () => {
    capped = await createTestApp({
      env: {
        MQTT_PORT: '0',
        MQTT_MAX_CONNECTIONS: '4',
        MQTT_MAX_CONNECTIONS_PER_ADDRESS: '3',
        // Idle sockets below: none closed as pending before the caps under test.
        MQTT_MAX_PENDING_CONNECTIONS: '4',
      },
    });
    capPort = capped.app.container.mqtt.port!;
  });
  afterAll(() => capped.close());

  /** A bare TCP connection from `localAddress` (any of 127.0.0.0/8 reaches loopback). */
  async function socketFrom(localAddress: string) {
    const socket = net.connect({ port: capPort, host: '127.0.0.1', localAddress });
    socket.on('error', () => {});
    await new Promise<void>((r) => socket.once('connect', () => r()));
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    return { socket, closed };
  }
  const isOpen = async (s: { socket: net.Socket }) => {
    await new Promise((r) => setTimeout(r, 100));
    return !s.socket.destroyed;
  };

  it('RES-9: closes a connection over the cap for its address, and one over the total', async () => {
    const mine = [];
    for (let i = 0; i < 3; i++) mine.push(await socketFrom('127.0.0.1'));
    const fourth = await socketFrom('127.0.0.1');
    await fourth.closed;
    const elsewhere = await socketFrom('127.0.0.2');
    expect(await isOpen(elsewhere)).toBe(true);
    // Four open: the total is reached, from whatever address.
    const fifth = await socketFrom('127.0.0.3');
    await fifth.closed;
    for (const s of mine) expect(await isOpen(s)).toBe(true);
    for (const s of [...mine, elsewhere]) {
      s.socket.destroy();
      await s.closed;
    }
    // Room again once they are closed.
    const later = await socketFrom('127.0.0.1');
    expect(await isOpen(later)).toBe(true);
    later.socket.destroy();
    await later.closed;
    expect(capped.logs().some((l) => l.includes('mqtt.connection_capped'))).toBe(true);
  });

  it('keeps the total within the open-file limit, leaving files for HTTP and the database', () => {
    expect(connectionCap(2000, undefined)).toBe(2000);
    expect(connectionCap(2000, 1024)).toBe(768);
    expect(connectionCap(2000, 65536)).toBe(2000);
    expect(connectionCap(2000, 100)).toBe(1);
    if (process.platform === 'linux') expect(openFileLimit()).toBeGreaterThan(0);
  });

  it('counts every packet a collar sends against its per-minute limit, not only readings', async () => {
    const owner = await seedUser(capped);
    const c = await ownedCollar(capped, await seedUser(capped, { role: 'admin' }), owner);
    // The collar's minute is used up but for six packets.
    const limit = Math.ceil(
      INGEST_BUDGET.collar.requestsPerMinute * capped.config.rateLimitMultiplier,
    );
    for (let i = 0; i < limit - 6; i++) capped.app.container.mqttPackets.hit(c.id, Date.now());
    const client = mqtt.connect(`mqtt://127.0.0.1:${capPort}`, {
      username: c.device_id,
      password: c.device_key,
      clientId: c.device_id,
      reconnectPeriod: 0,
      protocolVersion: 4,
    });
    await new Promise<void>((r, j) => {
      client.once('connect', () => r());
      client.once('error', j);
    });
    const closed = new Promise<void>((r) => client.once('close', () => r()));
    // CONNECT was one; five refused SUBSCRIBEs reach the six a minute; the next packet ends it.
    for (let i = 0; i < 5; i++)
      await expect(client.subscribeAsync(`x/${i}`, { qos: 1 })).rejects.toThrow(/Subscribe error/);
    expect(client.connected).toBe(true);
    client.subscribe('x/6');
    await closed;
    client.end(true);
    expect(capped.logs().some((l) => l.includes('mqtt.rate_limited'))).toBe(true);
  });
});

describe('connections that never send CONNECT (MQTT_MAX_PENDING_CONNECTIONS, the CONNECT timeout)', () => {
  let idle: TestApp;
  let idlePort: number;
  beforeAll(async () => {
    idle = await createTestApp({
      env: { MQTT_PORT: '0', MQTT_MAX_CONNECTIONS: '10', MQTT_MAX_PENDING_CONNECTIONS: '2' },
    });
    idlePort = idle.app.container.mqtt.port!;
  });
  afterAll(() => idle.close());

  async function bareSocket(localAddress = '127.0.0.1') {
    const socket = net.connect({ port: idlePort, host: '127.0.0.1', localAddress });
    socket.on('error', () => {});
    await new Promise<void>((r) => socket.once('connect', () => r()));
    let isClosed = false;
    const closed = new Promise<void>((r) =>
      socket.once('close', () => {
        isClosed = true;
        r();
      }),
    );
    return { socket, closed, isClosed: () => isClosed };
  }
  async function collar() {
    const o = await seedUser(idle);
    const c = await ownedCollar(idle, await seedUser(idle, { role: 'admin' }), o);
    const client = mqtt.connect(`mqtt://127.0.0.1:${idlePort}`, {
      username: c.device_id,
      password: c.device_key,
      clientId: c.device_id,
      reconnectPeriod: 0,
      connectTimeout: 5_000,
      protocolVersion: 4,
    });
    clients.push(client);
    await new Promise<void>((r, j) => {
      client.once('connect', () => r());
      client.once('error', j);
    });
    return { c, client };
  }

  it('holds few of them: past the cap the oldest closes, and connected collars keep their room', async () => {
    const connected = await collar();
    const first = await bareSocket('127.0.0.5');
    const second = await bareSocket('127.0.0.6');
    const third = await bareSocket('127.0.0.7');
    await first.closed;
    await new Promise((r) => setTimeout(r, 100));
    expect(second.isClosed()).toBe(false);
    expect(third.isClosed()).toBe(false);
    // The collar connected before is untouched, and a new collar still gets in.
    expect(connected.client.connected).toBe(true);
    const late = await collar();
    expect(late.client.connected).toBe(true);
    await publish(late.client, late.c.device_id, { temperature: 25, humidity: 40 });
    expect((await readingRows(idle, late.c.id)).map((r) => r.temperature)).toEqual([25]);
    expect(idle.logs().some((l) => l.includes('"cap":"pending"'))).toBe(true);
    for (const s of [second, third]) s.socket.destroy();
  });

  it(`closes a socket that sends no CONNECT within ${CONNECT_TIMEOUT_MS / 1000} s`, async () => {
    expect(CONNECT_TIMEOUT_MS).toBeLessThanOrEqual(5_000);
    const started = Date.now();
    const s = await bareSocket();
    await s.closed;
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_MS - 100);
    expect(waited).toBeLessThan(CONNECT_TIMEOUT_MS + 3_000);
  }, 15_000);

  it('counts IPv6 addresses per /64 for the per-address cap, IPv4 ones (mapped too) as they are', () => {
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:aaaa::9%eth0')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(addressKey('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(addressKey('10.0.0.1')).toBe('10.0.0.1');
  });
});
