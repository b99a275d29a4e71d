// A load generator in its own process (forked by lib.mjs startWorker), so each part of a
// benchmark has its own core time, measured apart from the server's and the others'. It runs
// one job sent over IPC and answers { type: 'result', ... } with the CPU seconds it used;
// jobs that hold connections open answer { type: 'ready' } first and wait for 'stop'.
import mqtt from 'mqtt';
import { Pool } from 'undici';
import { closedLoop, fixedRate, openStream, percentile, streamTicket } from './lib.mjs';

const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** One reading per call, for the collars in turn; timestamps rise per collar (no repeats). */
function readings(collars) {
  let i = 0;
  const last = new Map();
  return () => {
    const collar = collars[i++ % collars.length];
    const ts = Math.max(Date.now(), (last.get(collar.device_id) ?? 0) + 1);
    last.set(collar.device_id, ts);
    // A mild day (20–26.9 °C, under the default 85 °F warning): the background is readings,
    // not a fleet flapping in and out of heat alerts.
    const body = JSON.stringify({
      temperature: 20 + (ts % 70) / 10,
      humidity: 45 + (ts % 50) / 10,
      heart_rate: 80 + (ts % 40),
      activity_level: ts % 100,
      battery: 80,
      timestamp: ts,
    });
    return { collar, ts, body };
  };
}

/** An HTTP POST of one reading through the pool: resolves true on 201. */
function poster(pool, collars) {
  const next = readings(collars);
  return async () => {
    const { collar, body } = next();
    const res = await pool.request({
      path: `/api/devices/${collar.device_id}/vitals`,
      method: 'POST',
      headers: { authorization: `Device ${collar.device_key}`, 'content-type': 'application/json' },
      body,
    });
    await res.body.dump();
    return res.statusCode === 201;
  };
}

const untilStopped = () =>
  new Promise((resolve) => process.on('message', (m) => m === 'stop' && resolve()));

/** Runs a load against `pool`, then closes it: the result with the CPU seconds it took. */
async function measured(pool, load) {
  const cpu0 = cpuNow();
  const r = await load();
  const cpu = cpuNow() - cpu0;
  await pool.close();
  return { ...r, cpu };
}

const jobs = {
  /** As many single-reading POSTs as `concurrency` collars can get acknowledged. */
  async 'post-closed'({ base, collars, concurrency, seconds }) {
    const pool = new Pool(base, { connections: concurrency });
    const request = poster(pool, collars);
    return measured(pool, () => closedLoop({ concurrency, seconds, request }));
  },

  /** Single-reading POSTs at a fixed rate (open model): acknowledgement latency. */
  async 'post-rate'({ base, collars, rate, seconds, connections = 128 }) {
    const pool = new Pool(base, { connections });
    const request = poster(pool, collars);
    return measured(pool, () => fixedRate({ rate, seconds, request }));
  },

  /**
   * A flood: each target (a collar's key or an owner's token on one collar) posts lists of
   * 1,000 readings as fast as `concurrency` clients can, for `seconds`. Each list is a
   * different stretch of the last days (40 of them, then again: a repeat is stored once).
   * Counts the readings stored (201) and refused (429) per target.
   */
  async flood({ base, targets, concurrency, seconds }) {
    const pool = new Pool(base, { connections: targets.length * concurrency });
    const now = Date.now();
    const lists = Array.from({ length: 40 }, (_, k) =>
      JSON.stringify(
        Array.from({ length: 1000 }, (_, i) => ({
          temperature: 22 + (i % 40) / 10,
          humidity: 45,
          heart_rate: 90,
          activity_level: 3,
          battery: 80,
          timestamp: now - 60_000 - (k * 1000 + i) * 1000,
        })),
      ),
    );
    const counts = targets.map(() => ({ stored: 0, refused: 0, refusals: 0, other: 0 }));
    const cpu0 = cpuNow();
    const end = performance.now() + seconds * 1000;
    await Promise.all(
      targets.flatMap((target, t) =>
        Array.from({ length: concurrency }, async (_, c) => {
          for (let k = c; performance.now() < end; k += concurrency) {
            const res = await pool.request({
              path: `/api/devices/${target.device_id}/vitals`,
              method: 'POST',
              headers: { authorization: target.authorization, 'content-type': 'application/json' },
              body: lists[k % lists.length],
            });
            await res.body.dump();
            if (res.statusCode === 201) counts[t].stored += 1000;
            else if (res.statusCode === 429) {
              counts[t].refused += 1000;
              counts[t].refusals++;
            } else counts[t].other++;
          }
        }),
      ),
    );
    const cpu = cpuNow() - cpu0;
    await pool.close();
    return { counts, cpu };
  },

  /** As many signed-in GETs of one path as `concurrency` clients can get answered. */
  async 'get-closed'({ base, token, path, concurrency, seconds }) {
    const pool = new Pool(base, { connections: concurrency });
    const request = async () => {
      const res = await pool.request({
        path,
        method: 'GET',
        headers: { authorization: `Bearer ${token}` },
      });
      await res.body.dump();
      return res.statusCode === 200;
    };
    return measured(pool, () => closedLoop({ concurrency, seconds, request }));
  },

  /** Signed-in GETs at a fixed rate, the paths in turn. */
  async 'get-rate'({ base, token, paths, rate, seconds }) {
    const pool = new Pool(base, { connections: 32 });
    let i = 0;
    const request = async () => {
      const res = await pool.request({
        path: paths[i++ % paths.length],
        method: 'GET',
        headers: { authorization: `Bearer ${token}` },
      });
      await res.body.dump();
      return res.statusCode === 200;
    };
    return measured(pool, () => fixedRate({ rate, seconds, request }));
  },

  /** `count` stream clients that only listen; 'ready' once all are open, closed on 'stop'. */
  async streams({ base, token, count }) {
    const open = [];
    for (let i = 0; i < count; i += 50) {
      const batch = Array.from({ length: Math.min(50, count - i) }, async () =>
        openStream(base, await streamTicket(base, token), null),
      );
      open.push(...(await Promise.all(batch)));
    }
    process.send({ type: 'ready', open: open.length });
    const cpu0 = cpuNow();
    await untilStopped();
    for (const req of open) req.destroy();
    return { open: open.length, cpu: cpuNow() - cpu0 };
  },

  /**
   * The stream's latency: one owner's stream open, their collar posting `rate` readings a
   * second; each from when it was sent to when its `reading` event arrived.
   */
  async probe({ base, token, collar, rate, seconds }) {
    const sentAt = new Map();
    const latencies = [];
    let events = 0;
    await openStream(base, await streamTicket(base, token), (name, data) => {
      if (name !== 'reading') return;
      events++;
      const ts = Date.parse(JSON.parse(data).reading.timestamp);
      const t0 = sentAt.get(ts);
      if (t0 !== undefined) {
        latencies.push(performance.now() - t0);
        sentAt.delete(ts);
      }
    });
    const pool = new Pool(base, { connections: 4 });
    const next = readings([collar]);
    const post = async () => {
      const { body, ts } = next();
      sentAt.set(ts, performance.now());
      const res = await pool.request({
        path: `/api/devices/${collar.device_id}/vitals`,
        method: 'POST',
        headers: {
          authorization: `Device ${collar.device_key}`,
          'content-type': 'application/json',
        },
        body,
      });
      await res.body.dump();
      return res.statusCode === 201;
    };
    const cpu0 = cpuNow();
    const acks = await fixedRate({ rate, seconds, request: post });
    // The last events: until every reading's has come, or 5 s.
    for (let waited = 0; sentAt.size > 0 && waited < 5000; waited += 50)
      await new Promise((r) => setTimeout(r, 50));
    const cpu = cpuNow() - cpu0;
    await pool.close();
    const received = latencies.length;
    // An event still missing counts as at least as late as now: no survivor bias.
    for (const t0 of sentAt.values()) latencies.push(performance.now() - t0);
    latencies.sort((a, b) => a - b);
    return {
      sent: acks.sent,
      received,
      events,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies.at(-1),
      ackP99: acks.p99,
      cpu,
    };
  },

  /** `collars` connected over MQTT, each publishing QoS 1 and waiting for its PUBACK. */
  async mqtt({ url, collars, seconds }) {
    const t0 = performance.now();
    const clients = [];
    for (let i = 0; i < collars.length; i += 100) {
      clients.push(
        ...(await Promise.all(
          collars.slice(i, i + 100).map((c) =>
            mqtt.connectAsync(url, {
              username: c.device_id,
              password: c.device_key,
              clientId: `${c.device_id}-bench`,
              reconnectPeriod: 0,
            }),
          ),
        )),
      );
    }
    const connectSeconds = (performance.now() - t0) / 1000;
    const end = performance.now() + seconds * 1000;
    let acked = 0;
    let errors = 0;
    const cpu0 = cpuNow();
    await Promise.all(
      clients.map(async (client, i) => {
        const next = readings([collars[i]]);
        const topic = `pawguard/devices/${collars[i].device_id}/vitals`;
        while (performance.now() < end) {
          try {
            await client.publishAsync(topic, next().body, { qos: 1 });
            acked++;
          } catch {
            errors++;
          }
        }
      }),
    );
    const cpu = cpuNow() - cpu0;
    await Promise.all(clients.map((c) => c.endAsync()));
    return { connected: clients.length, connectSeconds, perSecond: acked / seconds, errors, cpu };
  },
};

process.once('message', async (job) => {
  try {
    const result = await jobs[job.kind](job);
    process.send({ type: 'result', ...result }, () => process.exit(0));
  } catch (err) {
    process.send({ type: 'error', message: err.stack ?? String(err) }, () => process.exit(1));
  }
});
