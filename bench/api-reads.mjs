// API reads: GET /api/dogs for a signed-in owner with 20 pets, at a steady 500 requests/s.
// Budget (DESIGN §9): p99 ≤ 50 ms at 500 requests/s (later: under ingest load as well).
// Then what a signed-in call costs beside an unauthenticated one: each path as fast as 16
// clients can go (closed loop, in a load process of its own), with the server's CPU per call.
import { benchSeconds, cpuSeconds, fixedRate, fmt, startServer, startWorker } from './lib.mjs';

const SIGNED_IN_PATHS = [
  ['/api/health', 'health, no session'],
  ['/api/auth/profile', 'the session'],
  ['/api/dogs', '20 pets'],
  ['/api/devices', 'no collars'],
];

async function perCall(server, token) {
  const seconds = benchSeconds(4);
  const lines = [];
  for (const [path, what] of SIGNED_IN_PATHS) {
    const job = { kind: 'get-closed', base: server.base, token, path, concurrency: 16 };
    await startWorker({ ...job, seconds: 1 }).result; // warm-up
    const cpu0 = cpuSeconds(server.pid);
    const r = await startWorker({ ...job, seconds }).result;
    const cpu = cpuSeconds(server.pid) - cpu0;
    lines.push(
      `              ${`GET ${path}`.padEnd(22)} ${fmt(r.perSecond, 0).padStart(6)}/s, errors ${r.errors}; server CPU ${fmt((cpu / (r.perSecond * seconds)) * 1e6, 0)} µs a call (${what})`,
    );
  }
  console.log(
    `api calls   16 clients, closed loop, ${seconds} s each, the same owner's token on every call\n${lines.join('\n')}`,
  );
}

export async function run() {
  const server = await startServer();
  try {
    const reg = await fetch(`${server.base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'owner@bench.test',
        password: 'bench-password-1',
        name: 'Bench Owner',
      }),
    }).then((r) => r.json());
    const headers = { authorization: `Bearer ${reg.token}` };
    for (let i = 0; i < 20; i++) {
      await fetch(`${server.base}/api/dogs`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Dog ${i}`, breed: 'Beagle', age: 3, weight: 22.5 }),
      });
    }
    const request = async () => {
      const res = await fetch(`${server.base}/api/dogs`, { headers });
      await res.arrayBuffer();
      return res.status === 200;
    };
    await fixedRate({ rate: 200, seconds: 2, request }); // warm-up
    const cpu0 = cpuSeconds(server.pid);
    const r = await fixedRate({ rate: 500, seconds: 10, request });
    const cpu = cpuSeconds(server.pid) - cpu0;
    console.log(
      `api reads   GET /api/dogs (20 pets) at 500 req/s for 10 s: p50 ${fmt(r.p50)} ms, p99 ${fmt(r.p99)} ms, ` +
        `max ${fmt(r.max)} ms, errors ${r.errors}/${r.sent}; server CPU ${fmt(cpu, 2)} s ` +
        `(budget p99 ≤ 50 ms: ${r.p99 <= 50 ? 'met' : 'NOT met'})`,
    );
    await perCall(server, reg.token);
  } finally {
    await server.stop();
  }
}
