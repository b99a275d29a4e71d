// Sign-in cost: argon2id (m=19456 KiB, t=2, p=1) makes every login CPU-heavy, which is why
// logins are rate-limited per IP and per account before any hashing (RES-6). This prints how
// many logins per second the server can hash, and what a flood beyond the limit costs.
import { closedLoop, cpuSeconds, fmt, startServer } from './lib.mjs';

const body = JSON.stringify({ email: 'admin@bench.test', password: 'bench-admin-password' });
const login = (base) => async () => {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  await res.arrayBuffer();
  return res.status === 200;
};

export async function run() {
  const server = await startServer();
  try {
    const cpu0 = cpuSeconds(server.pid);
    const r = await closedLoop({ concurrency: 8, seconds: 5, request: login(server.base) });
    const cpu = cpuSeconds(server.pid) - cpu0;
    console.log(
      `logins      8 concurrent clients for 5 s: ${fmt(r.perSecond)} logins/s, errors ${r.errors}; ` +
        `server CPU ${fmt(cpu, 2)} s (${fmt((cpu / (r.perSecond * 5)) * 1000, 1)} ms CPU per login)`,
    );
  } finally {
    await server.stop();
  }
  // With the default limits, a flood from one address is refused before hashing.
  const limited = await startServer({ RATE_LIMIT_MULTIPLIER: '1' });
  try {
    const cpu0 = cpuSeconds(limited.pid);
    let refused = 0;
    let total = 0;
    await closedLoop({
      concurrency: 8,
      seconds: 3,
      request: async () => {
        const res = await fetch(`${limited.base}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        await res.arrayBuffer();
        total++;
        if (res.status === 429) refused++;
        return true;
      },
    });
    const cpu = cpuSeconds(limited.pid) - cpu0;
    console.log(
      `login flood 8 clients for 3 s against the default limit (30/min per IP): ${total} requests, ${refused} refused with 429; ` +
        `server CPU ${fmt(cpu, 2)} s (${fmt((cpu / total) * 1000, 2)} ms per request)`,
    );
  } finally {
    await limited.stop();
  }
}
