// API reads while collars post: an owner's GET /api/dogs and GET /api/devices at 500
// requests/s (open model) while 2,000 readings/s arrive from 1,000 other collars.
// Budget (DESIGN §9): p99 ≤ 50 ms.
import {
  account,
  benchSeconds,
  fleet,
  fmt,
  met,
  startServer,
  startWorker,
  underIngestLoad,
} from './lib.mjs';

const READ_RATE = 500;
const INGEST_RATE = 2000;

export async function run() {
  const seconds = benchSeconds(10);
  const server = await startServer();
  try {
    // The reader: 20 pets and 5 collars, as a busy household has.
    const owner = await account(server.base, 'reader@bench.test');
    for (let i = 0; i < 20; i++) {
      await fetch(`${server.base}/api/dogs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Dog ${i}`, breed: 'Beagle', age: 3, weight: 22.5 }),
      });
    }
    await fleet(server.base, 5, 'reader@bench.test');
    const collars = await fleet(server.base, 1000, 'fleet@bench.test');
    const reads = {
      kind: 'get-rate',
      base: server.base,
      token: owner.token,
      paths: ['/api/dogs', '/api/devices'],
    };
    await startWorker({ ...reads, rate: 200, seconds: 2 }).result; // warm-up

    const {
      measured: r,
      ingest: l,
      serverCpu: cpu,
    } = await underIngestLoad(
      server,
      { collars, rate: INGEST_RATE, seconds },
      () => startWorker({ ...reads, rate: READ_RATE, seconds }).result,
    );
    console.log(
      `reads load  GET /api/dogs (20 pets) and /api/devices (5 collars) in turn at ${READ_RATE} req/s for ${seconds} s ` +
        `while ${INGEST_RATE} readings/s arrive: p50 ${fmt(r.p50)} ms, p99 ${fmt(r.p99)} ms, max ${fmt(r.max)} ms, ` +
        `errors ${r.errors}/${r.sent} (budget p99 ≤ 50 ms: ${met(r.p99 <= 50)})\n` +
        `              ingest meanwhile: p50 ${fmt(l.p50)} ms, p99 ${fmt(l.p99)} ms, errors ${l.errors}/${l.sent}; ` +
        `server CPU ${fmt(cpu, 2)} s, load generator CPU ${fmt(l.cpu + r.cpu, 2)} s`,
    );
  } finally {
    await server.stop();
  }
}
