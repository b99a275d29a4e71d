import net from 'node:net';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { ownedCollar } from '../helpers/devices.js';
import { readingRows } from '../helpers/readings.js';
import { until } from '../helpers/sse.js';
import { isVitalsTopicOf, MAX_MQTT_PACKET } from '../../src/services/mqtt-endpoint.js';

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

  it('takes the Device ID in its topic in any case, as HTTP does, and no other change', async () => {
    const c = await ownedCollar(t, admin, owner);
    const client = await connect(c.device_id, c.device_key);
    await publish(client, c.device_id.toLowerCase(), { temperature: 24.5, humidity: 45 });
    expect((await readingRows(t, c.id)).map((r) => r.temperature)).toEqual([24.5]);
    expect(
      isVitalsTopicOf(`pawguard/devices/${c.device_id.toLowerCase()}/vitals`, c.device_id),
    ).toBe(true);
    expect(isVitalsTopicOf(`PAWGUARD/devices/${c.device_id}/vitals`, c.device_id)).toBe(false);
    // Another collar's Device ID, in any case, is still another collar's.
    expect(isVitalsTopicOf('pawguard/devices/pet-abce/vitals', 'PET-ABCD')).toBe(false);
    expect(isVitalsTopicOf('pawguard/devices/+/vitals', 'PET-ABCD')).toBe(false);
    expect(isVitalsTopicOf(`pawguard/devices/${c.device_id}/VITALS`, c.device_id)).toBe(false);
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
