// Helpers shared by the benchmarks: start the built server, drive it, read its CPU time.
import { execFileSync, fork, spawn } from 'node:child_process';
import http from 'node:http';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Starts apps/server/dist/server.js on a fresh DATA_DIR; resolves when /api/health answers. */
export async function startServer(env = {}, { inspect = false } = {}) {
  const port = await freePort();
  // With `inspect`, V8's inspector listens on a port of its own (127.0.0.1 only), for
  // retainedKiB() below; it costs nothing while nobody is attached.
  const inspectPort = inspect ? await freePort() : undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-bench-'));
  // SQLite unless the caller passes DATABASE_URL: the PostgreSQL runs name it themselves.
  const { DATABASE_URL: _pg, ...inherited } = process.env;
  const nodeArgs = inspectPort ? [`--inspect=127.0.0.1:${inspectPort}`] : [];
  const child = spawn(
    process.execPath,
    [...nodeArgs, path.join(root, 'apps/server/dist/server.js')],
    {
      env: {
        ...inherited,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        ADMIN_EMAIL: 'admin@bench.test',
        ADMIN_PASSWORD: 'bench-admin-password',
        RATE_LIMIT_MULTIPLIER: '100000',
        ...env,
      },
      stdio: ['ignore', 'ignore', inspectPort ? 'pipe' : 'inherit'],
    },
  );
  // The inspector's own lines ("Debugger listening on …") are not the server's to tell.
  child.stderr?.on('data', (chunk) => {
    const text = String(chunk)
      .split('\n')
      .filter(
        (l) =>
          l &&
          !/^(Debugger (listening|ending|attached)|For help, see|Waiting for the debugger)/.test(l),
      )
      .join('\n');
    if (text) process.stderr.write(`${text}\n`);
  });
  let exit = null;
  child.on('exit', (code, signal) => (exit = { code, signal }));
  const base = `http://127.0.0.1:${port}`;
  // A busy machine may take a while to start it; 60 s is plenty.
  for (let i = 0; ; i++) {
    if (exit) throw new Error(`The server exited at start (${exit.signal ?? exit.code})`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i === 600) {
      child.kill('SIGKILL');
      throw new Error('The server did not answer /api/health within 60 s');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    pid: child.pid,
    inspectPort,
    /** `{ code, signal }` once the server has exited, else null. */
    get exit() {
      return exit;
    },
    async stop() {
      if (!exit) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** User + system CPU seconds the process has used (Linux /proc). */
export function cpuSeconds(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / 100; // USER_HZ is 100 on Linux
}

/**
 * What the server started with `{ inspect: true }` keeps, in KiB: its JavaScript heap and the
 * memory outside it that its objects hold (Buffers: a message's payload lives there), right
 * after a full garbage collection asked for through V8's inspector. Its resident memory moves
 * by tens of MiB with garbage not yet collected; this moves only with what is kept.
 */
export async function retainedKiB(server) {
  const [target] = await (await fetch(`http://127.0.0.1:${server.inspectPort}/json/list`)).json();
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = () => reject(new Error('The server’s inspector did not answer'));
  });
  const waiting = new Map();
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    waiting.get(m.id)?.(m);
  };
  let id = 0;
  const call = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const n = ++id;
      waiting.set(n, (m) => (m.error ? reject(new Error(m.error.message)) : resolve(m.result)));
      ws.send(JSON.stringify({ id: n, method, params }));
    });
  try {
    await call('HeapProfiler.collectGarbage');
    const { result } = await call('Runtime.evaluate', {
      expression: 'JSON.stringify(process.memoryUsage())',
      returnByValue: true,
    });
    const { heapUsed, external } = JSON.parse(result.value);
    return (heapUsed + external) / 1024;
  } finally {
    ws.close();
  }
}

/** The resident memory of a process in KiB (Linux /proc). */
export function rssKiB(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]);
}

/**
 * Runs one job of load-worker.mjs in a process of its own. `result` resolves with its answer
 * (including the CPU seconds it used); `ready` when a job holding connections has opened
 * them; `stop()` asks such a job to close them and answer.
 */
export function startWorker(job, { cpu } = {}) {
  const child = fork(path.join(root, 'bench/load-worker.mjs'), { stdio: 'inherit' });
  if (cpu !== undefined) pin(child.pid, cpu);
  let onReady;
  const ready = new Promise((r) => (onReady = r));
  const result = new Promise((resolve, reject) => {
    child.on('message', (m) => {
      if (m.type === 'ready') onReady(m);
      else if (m.type === 'result') resolve(m);
      else if (m.type === 'error') reject(new Error(`load worker ${job.kind}: ${m.message}`));
    });
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`load worker ${job.kind} exited with ${code}`));
    });
  });
  child.send(job);
  return { pid: child.pid, ready, result, stop: () => child.connected && child.send('stop') };
}

/**
 * Holds a process, every thread it has and every one it starts, to one CPU core (Linux'
 * taskset), so that a server and its load generator do not take each other's core.
 */
export function pin(pid, cpu) {
  execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
}

/** The bare route (`bare-server.mjs`), or another yardstick in bench/ that tells its port. */
export async function startBareServer(script = 'bare-server.mjs') {
  const child = fork(path.join(root, 'bench', script), { stdio: 'inherit' });
  const { port } = await new Promise((r) => child.once('message', r));
  return {
    base: `http://127.0.0.1:${port}`,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Sends requests at a fixed rate (open model): each request's latency is measured from when
 * it was scheduled, not sent, so a stalled server cannot hide its queue (no coordinated
 * omission).
 */
export async function fixedRate({ rate, seconds, request }) {
  const total = rate * seconds;
  const interval = 1000 / rate;
  const start = performance.now();
  const latencies = [];
  let errors = 0;
  const inflight = [];
  for (let i = 0; i < total; i++) {
    const scheduled = start + i * interval;
    const wait = scheduled - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    inflight.push(
      request().then(
        (ok) => {
          if (!ok) errors++;
          latencies.push(performance.now() - scheduled);
        },
        () => {
          errors++;
        },
      ),
    );
  }
  await Promise.all(inflight);
  latencies.sort((a, b) => a - b);
  return {
    sent: total,
    errors,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1),
  };
}

/** As many requests as `concurrency` workers can complete in `seconds`. */
export async function closedLoop({ concurrency, seconds, request }) {
  const end = performance.now() + seconds * 1000;
  let done = 0;
  let errors = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        try {
          if (await request()) done++;
          else errors++;
        } catch {
          errors++;
        }
      }
    }),
  );
  return { perSecond: done / seconds, errors };
}

export const fmt = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

/** 'met' or 'NOT met', for a budget line. */
export const met = (ok) => (ok ? 'met' : 'NOT met');

/** Seconds per measured phase: `BENCH_SECONDS`, else the benchmark's default. */
export function benchSeconds(fallback) {
  const n = Number(process.env.BENCH_SECONDS);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/** The admin startServer creates. */
export const BENCH_ADMIN = { email: 'admin@bench.test', password: 'bench-admin-password' };

/** The collar simulator's set-up calls (TypeScript: run.mjs loads tsx). */
const provision = () => import('@pawguard/collar-sim/provision');

/** Signs in, registering the account first when it is new: `{ token, user }`. */
export async function account(base, email) {
  const { ensureAccount } = await provision();
  return ensureAccount(base, { email, password: 'bench-password-1', name: email.split('@')[0] });
}

export async function adminToken(base) {
  const { signIn } = await provision();
  return (await signIn(base, BENCH_ADMIN)).token;
}

/**
 * `count` collars with their keys, pre-populated by the admin and assigned to the user
 * `email` (created when new): `[{ id, device_id, device_key }]`.
 */
export async function fleet(base, count, email = 'fleet@bench.test') {
  const { collarsForUser } = await provision();
  const owner = await account(base, email);
  return collarsForUser(base, await adminToken(base), owner.user.id, count);
}

/**
 * A database of its own on the PostgreSQL server of `url`, dropped afterwards, so a run never
 * touches the data DATABASE_URL points at.
 */
export async function temporaryPgDatabase(url) {
  const { default: pg } = await import('pg');
  const name = `pawguard_bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/**
 * Runs `measure()` (a load worker's result) while `rate` readings/s arrive from `collars`,
 * the ingest load starting a second before it and ending a second after. Resolves with the
 * measurement, the ingest's own result and the server's CPU seconds over the whole stretch.
 */
export async function underIngestLoad(server, { collars, rate, seconds }, measure) {
  const cpu0 = cpuSeconds(server.pid);
  const load = startWorker({
    kind: 'post-rate',
    base: server.base,
    collars,
    rate,
    seconds: seconds + 2,
  });
  await new Promise((r) => setTimeout(r, 1000));
  const measured = await measure();
  const ingest = await load.result;
  return { measured, ingest, serverCpu: cpuSeconds(server.pid) - cpu0 };
}

/** Opens an SSE stream; `onEvent(name, data)` per event. Resolves once the headers are in. */
export function openStream(base, ticket, onEvent) {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}/api/stream?ticket=${encodeURIComponent(ticket)}`, {
      agent: false,
    });
    req.once('error', reject);
    req.once('response', (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`stream answered ${res.statusCode}`));
        return;
      }
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk) => {
        if (!onEvent) return;
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let name = 'message';
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) name = line.slice(6).trim();
            else if (line.startsWith('data:')) data += line.slice(5).trim();
          }
          if (data) onEvent(name, data);
        }
      });
      res.on('error', () => {});
      resolve(req);
    });
  });
}

/** A single-use stream ticket for a signed-in token. */
export async function streamTicket(base, token) {
  const res = await fetch(`${base}/api/stream/ticket`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.status !== 200 && res.status !== 201)
    throw new Error(`POST /api/stream/ticket answered ${res.status}`);
  return (await res.json()).ticket;
}
