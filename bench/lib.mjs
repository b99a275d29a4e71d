// Helpers shared by the benchmarks: start the built server, drive it, read its CPU time.
import { spawn } from 'node:child_process';
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
export async function startServer(env = {}) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-bench-'));
  const child = spawn(process.execPath, [path.join(root, 'apps/server/dist/server.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: 'admin@bench.test',
      ADMIN_PASSWORD: 'bench-admin-password',
      RATE_LIMIT_MULTIPLIER: '100000',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let exit = null;
  child.on('exit', (code, signal) => (exit = { code, signal }));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    pid: child.pid,
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
