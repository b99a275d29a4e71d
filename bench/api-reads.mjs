// API reads: GET /api/dogs for a signed-in owner with 20 pets, at a steady 500 requests/s.
// Budget (DESIGN §9): p99 ≤ 50 ms at 500 requests/s (later: under ingest load as well).
import { cpuSeconds, fixedRate, fmt, startServer } from './lib.mjs';

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
  } finally {
    await server.stop();
  }
}
