// GC soak: the real server under minutes of mixed signed-in API traffic while V8 collects
// garbage constantly (a 1 MiB young generation), the condition under which a native add-on
// with a broken destructor aborts the process. Prints what was served and whether the
// server is still alive. BENCH_SOAK_SECONDS sets the length (default 180).
import { closedLoop, cpuSeconds, fmt, startServer } from './lib.mjs';

const json = (body) => ({ 'content-type': 'application/json', body: JSON.stringify(body) });

export async function run() {
  const seconds = Number(process.env.BENCH_SOAK_SECONDS ?? 180);
  const server = await startServer({ NODE_OPTIONS: '--max-semi-space-size=1' });
  const call = async (method, url, token, body) => {
    const { 'content-type': ct, body: payload } = body ? json(body) : {};
    const res = await fetch(`${server.base}${url}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(ct ? { 'content-type': ct } : {}),
      },
      body: payload,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  const started = performance.now();
  try {
    const admin = (
      await call('POST', '/api/auth/login', null, {
        email: 'admin@bench.test',
        password: 'bench-admin-password',
      })
    ).body.token;
    const owners = [];
    for (let i = 0; i < 4; i++) {
      const r = await call('POST', '/api/auth/register', null, {
        email: `soak${i}@bench.test`,
        password: 'bench-password-1',
        name: `Soak ${i}`,
      });
      owners.push(r.body.token);
    }
    const statuses = new Map();
    let seq = 0;
    // One round: create a pet, read lists, update and delete it, claim-free reads, admin reads.
    const round = async () => {
      const token = owners[seq++ % owners.length];
      const steps = [];
      const created = await call('POST', '/api/dogs', token, {
        name: `Dog ${seq}`,
        breed: 'Beagle',
        age: 3,
        weight: 20,
      });
      steps.push(created.status);
      const id = created.body?.dog?.id;
      steps.push((await call('GET', '/api/dogs', token)).status);
      steps.push((await call('GET', '/api/devices', token)).status);
      steps.push((await call('GET', '/api/notifications/preferences', token)).status);
      steps.push(
        (await call('PUT', `/api/dogs/${id}`, token, { name: `Dog ${seq}b`, breed: 'Collie' }))
          .status,
      );
      steps.push((await call('DELETE', `/api/dogs/${id}`, token)).status);
      steps.push((await call('GET', '/api/auth/users', admin)).status);
      steps.push((await call('GET', '/api/devices/all', admin)).status);
      steps.push((await call('POST', '/api/dogs', token, { name: '' })).status); // refused: 400
      for (const s of steps) statuses.set(s, (statuses.get(s) ?? 0) + 1);
      return steps.every((s) => s < 500);
    };
    const cpu0 = cpuSeconds(server.pid);
    const r = await closedLoop({ concurrency: 8, seconds, request: round });
    const cpu = cpuSeconds(server.pid) - cpu0;
    const alive =
      !server.exit &&
      (await fetch(`${server.base}/api/health`).then(
        (x) => x.status,
        () => 0,
      )) === 200;
    const died = server.exit
      ? `EXITED (code ${server.exit.code}, signal ${server.exit.signal})`
      : '';
    const byStatus = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}×${n}`)
      .join(' ');
    const requests = [...statuses.values()].reduce((a, b) => a + b, 0);
    console.log(
      `gc soak     mixed API traffic for ${seconds} s with --max-semi-space-size=1: ${requests} requests ` +
        `(${byStatus}), rounds with a 5xx or a failed call ${r.errors}; server CPU ${fmt(cpu, 1)} s; ` +
        `server ${alive ? 'alive and healthy afterwards' : died || 'NOT answering afterwards'}`,
    );
  } catch (err) {
    if (!server.exit) throw err;
    console.log(
      `gc soak     server EXITED (code ${server.exit.code}, signal ${server.exit.signal}) under ` +
        `--max-semi-space-size=1 after ${fmt(performance.now() - started, 0)} ms`,
    );
  } finally {
    await server.stop();
  }
}
