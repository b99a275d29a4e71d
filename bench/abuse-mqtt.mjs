// One collar key trying to fill the server's memory over MQTT: 10,000 retained publishes of
// 100 KB that is not a reading, each on another spelling of its topic (spaces before the
// Device ID, its case changed). Each is refused and its connection closed; the figures are
// what the server keeps (its heap and Buffers after a full garbage collection) and its
// resident memory, before, halfway and after. Budget: flat (a broker that kept them would hold
// about 1 GB). Figures only.
import mqtt from 'mqtt';
import { fleet, fmt, freePort, met, retainedKiB, rssKiB, startServer } from './lib.mjs';

const ATTEMPTS = 10_000;
const PAYLOAD = 'x'.repeat(100_000);

/** The topic's spelling for attempt `i`: never the same twice in a row, never the real one. */
function variant(deviceId, i) {
  const id = i % 2 ? deviceId.toLowerCase() : deviceId;
  return `pawguard/devices/${' '.repeat(1 + (i % 500))}${id}/vitals`;
}

/** Connects, publishes one retained message, and waits for the server to close the connection. */
async function attempt(url, collar, i) {
  const client = await mqtt.connectAsync(url, {
    username: collar.device_id,
    password: collar.device_key,
    clientId: `${collar.device_id}-${i % 2}`,
    reconnectPeriod: 0,
    protocolVersion: 4,
  });
  const closed = new Promise((r) => client.once('close', r));
  client.publish(variant(collar.device_id, i), PAYLOAD, { qos: 0, retain: true });
  await Promise.race([closed, new Promise((r) => setTimeout(r, 5_000))]);
  const refused = !client.connected;
  client.end(true);
  return refused;
}

/**
 * `attempts` retained publishes against the server's MQTT endpoint at `url`, two at a time
 * after 200 to warm up: `{ attempts, refused, seconds, kept, rss }` (each `{ before, middle,
 * after }` in KiB) and `line`, the figure against its budget. `server` was started with
 * `{ inspect: true }`. With one collar it makes every attempt; with more, the first warms up
 * and the others take `perCollar` attempts each in turn (at the default limits a key may
 * connect 600 times a minute).
 */
export async function retainedMemory({ server, url, collars, perCollar = Infinity }) {
  const attempts = ATTEMPTS;
  const collarFor = (i) =>
    collars.length === 1
      ? collars[0]
      : collars[1 + (Math.floor(i / perCollar) % (collars.length - 1))];
  // Warm: the first connections load code and fill pools that then stay.
  for (let i = 0; i < 200; i++) await attempt(url, collars[0], i);
  const measure = async () => ({ kept: await retainedKiB(server), rss: rssKiB(server.pid) });
  const before = await measure();
  let middle = before;
  let refused = 0;
  const started = Date.now();
  // Two at a time: a key's two connections (a third would close the oldest).
  for (let i = 0; i < attempts; i += 2) {
    const collar = collarFor(i);
    const done = await Promise.all([attempt(url, collar, i), attempt(url, collar, i + 1)]);
    refused += done.filter(Boolean).length;
    if (i === attempts / 2) middle = await measure();
  }
  const after = await measure();
  const seconds = (Date.now() - started) / 1000;
  const mib = (kib) => `${fmt(kib / 1024, 1)}`;
  const change = (k) => {
    const d = (after[k] - before[k]) / 1024;
    return `${d >= 0 ? '+' : ''}${fmt(d, 1)} MiB`;
  };
  // The first half may still fill pools to the size this traffic needs; the second may not.
  const secondHalf = (after.kept - middle.kept) / 1024;
  const line =
    `${attempts} retained publishes of 100 KB on 1,000 topic spellings${collars.length > 1 ? ` by ${collars.length - 1} collar keys of one account, ${perCollar} each` : ''} in ${fmt(seconds, 1)} s, ` +
    `${refused} refused (connection closed): kept (heap and Buffers after a full GC) ${mib(before.kept)} → ${mib(middle.kept)} → ${mib(after.kept)} MiB (${change('kept')}), ` +
    `resident ${mib(before.rss)} → ${mib(middle.rss)} → ${mib(after.rss)} MiB (${change('rss')}); kept, they would be ~${fmt((attempts * PAYLOAD.length) / 2 ** 20, 0)} MiB. ` +
    `Budget flat (kept grows < 16 MiB in the second half, every attempt refused): ${met(secondHalf < 16 && refused === attempts)}`;
  return { attempts, refused, seconds, kept: before.kept, line };
}

export async function run() {
  const mqttPort = await freePort();
  const server = await startServer({ MQTT_PORT: String(mqttPort) }, { inspect: true });
  try {
    const [collar] = await fleet(server.base, 1, 'abuse-mqtt@bench.test');
    const { line } = await retainedMemory({
      server,
      url: `mqtt://127.0.0.1:${mqttPort}`,
      collars: [collar],
    });
    console.log(`abuse-mqtt  ${line}`);
  } finally {
    await server.stop();
  }
}
