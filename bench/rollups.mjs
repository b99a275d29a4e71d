// History and the heat-risk back-test on a collar with a month of one-second readings
// (2,592,000 rows, stored directly, not through HTTP), read from rollups, while another collar
// posts; beside them the raw scans they replaced, timed in process. SQLite, the default.
// Budgets (issue "Bounded under abuse", RES-8): history?range=7d and risk/backtest?days=30
// p99 ≤ 50 ms; the other collar's acknowledgement p99 unchanged while they loop.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { BacktestTally, asVitalsStatus } from '@pawguard/shared';
import {
  account,
  benchSeconds,
  cpuSeconds,
  fixedRate,
  fleet,
  fmt,
  met,
  percentile,
  startServer,
} from './lib.mjs';

const EMAIL = 'rollups@bench.test';
const DAYS = 30;
const DAY = 86_400_000;
/** The other collar's uploads a second, one reading each. */
const ACK_RATE = 20;
/** Callers looping on history and the back-test. */
const READERS = 2;

export async function run() {
  const seconds = benchSeconds(10);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-bench-rollups-'));
  try {
    // Two collars of one owner, registered through the API.
    let server = await startServer({ DATA_DIR: dataDir });
    const [heavy, other] = await fleet(server.base, 2, EMAIL);
    await server.stop();

    const now = Date.now();
    const file = path.join(dataDir, 'pawguard.db');
    const sqlite = new Database(file);
    const stored = fill(sqlite, heavy.id, now);
    const before = rawScans(sqlite, heavy.id, now);
    const { backfillRollups } =
      await import('../apps/server/src/db/migrations/015-reading-rollups.ts');
    const db = new Kysely({ dialect: new SqliteDialect({ database: sqlite }) });
    let t0 = performance.now();
    await backfillRollups(db);
    const backfillS = (performance.now() - t0) / 1000;
    const rollups = sqlite
      .prepare('select bucket_seconds, count(*) n from reading_rollups group by 1 order by 1')
      .all();
    await db.destroy();
    console.log(
      `rollups     a collar with ${(stored.rows / 1e6).toFixed(2)} M readings (one a second for ${DAYS} days) ` +
        `stored directly in ${fmt(stored.seconds)} s; summed up into ` +
        rollups.map((r) => `${r.n} ${r.bucket_seconds === 60 ? 'minute' : 'hour'}`).join(' and ') +
        ` rollups in ${fmt(backfillS)} s (what migration 015 costs such a collar)\n` +
        `            before (the raw scans the server ran, in process): history?range=7d ${fmt(before.history)} ms ` +
        `(${before.historyRows} readings), risk/backtest?days=30 ${fmt(before.backtest)} ms (${before.backtestRows} readings)`,
    );

    server = await startServer({ DATA_DIR: dataDir });
    try {
      const { token } = await account(server.base, EMAIL);
      const get = (url) => async () => {
        const res = await fetch(`${server.base}/api/devices/${heavy.id}/${url}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        await res.arrayBuffer();
        return res.ok;
      };
      const post = async () => {
        const res = await fetch(`${server.base}/api/devices/${other.device_id}/vitals`, {
          method: 'POST',
          headers: {
            authorization: `Device ${other.device_key}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ temperature: 24, humidity: 50 }),
        });
        await res.arrayBuffer();
        return res.ok;
      };
      // Checked once: the answers cover the month.
      const check = await (
        await fetch(`${server.base}/api/devices/${heavy.id}/risk/backtest?days=30`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).json();
      await fixedRate({ rate: ACK_RATE, seconds: 2, request: post }); // warm-up
      const idle = await fixedRate({ rate: ACK_RATE, seconds, request: post });
      const reads = { history: [], backtest: [] };
      let errors = 0;
      let stop = false;
      const readers = Array.from({ length: READERS }, async (_, i) => {
        for (let n = i; !stop; n++) {
          const which = n % 2 ? 'backtest' : 'history';
          const url = which === 'history' ? 'history?range=7d' : `risk/backtest?days=${DAYS}`;
          t0 = performance.now();
          if (!(await get(url)())) errors++;
          reads[which].push(performance.now() - t0);
        }
      });
      const cpu0 = cpuSeconds(server.pid);
      const busy = await fixedRate({ rate: ACK_RATE, seconds, request: post });
      stop = true;
      await Promise.all(readers);
      const cpu = cpuSeconds(server.pid) - cpu0;
      const figures = (list) => {
        list.sort((a, b) => a - b);
        return { n: list.length, p50: percentile(list, 50), p99: percentile(list, 99) };
      };
      const h = figures(reads.history);
      const b = figures(reads.backtest);
      console.log(
        `            after (rollups, over HTTP, ${READERS} callers looping for ${seconds} s): ` +
          `history?range=7d p50 ${fmt(h.p50)} ms, p99 ${fmt(h.p99)} ms (${h.n} calls); ` +
          `risk/backtest?days=30 p50 ${fmt(b.p50)} ms, p99 ${fmt(b.p99)} ms (${b.n} calls; ` +
          `${check.readings} readings summed); errors ${errors} ` +
          `(budget p99 ≤ 50 ms: ${met(h.p99 <= 50 && b.p99 <= 50)}); ` +
          `server CPU ${fmt((cpu / (h.n + b.n + busy.sent)) * 1000, 2)} ms a request\n` +
          `            another collar's acknowledgement at ${ACK_RATE}/s: alone p50 ${fmt(idle.p50)} ms, p99 ${fmt(idle.p99)} ms; ` +
          `while they loop p50 ${fmt(busy.p50)} ms, p99 ${fmt(busy.p99)} ms, errors ${idle.errors + busy.errors}`,
      );
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * A month of one-second readings for `deviceId`, ending now: a daily swing of temperature
 * that crosses the default warning threshold (85 °F) in the afternoons, with the heat-risk
 * model's band a little ahead of it.
 */
function fill(sqlite, deviceId, now) {
  const t0 = performance.now();
  const insert = sqlite.prepare(
    `insert into readings (device_id, recorded_at, received_at, temperature, humidity, heart_rate,
       activity_level, battery, status, risk_band, risk_score)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const total = DAYS * 86_400;
  const start = now - total * 1000;
  const chunk = sqlite.transaction((from, to) => {
    for (let i = from; i < to; i++) {
      const at = start + i * 1000;
      const hour = (at / 3_600_000) % 24;
      const temperature =
        Math.round((26 + 5 * Math.sin(((hour - 9) / 24) * 2 * Math.PI) + (i % 7) / 10) * 10) / 10;
      const status = temperature >= 29.5 ? 'WARNING' : 'SAFE';
      const band = temperature >= 30.5 ? 'DANGER' : temperature >= 28.5 ? 'WARNING' : 'SAFE';
      insert.run(
        deviceId,
        at,
        at,
        temperature,
        50 + (i % 20),
        80 + (i % 60),
        i % 100,
        90,
        status,
        band,
        0.3,
      );
    }
  });
  for (let i = 0; i < total; i += 100_000) chunk(i, Math.min(total, i + 100_000));
  return { rows: total, seconds: (performance.now() - t0) / 1000 };
}

/** The queries history and the back-test ran before rollups, timed in process. */
function rawScans(sqlite, deviceId, now) {
  const bucketMs = 1_800_000;
  const to = Math.ceil((now + 1) / bucketMs) * bucketMs;
  const from = to - Math.ceil((7 * DAY) / bucketMs) * bucketMs;
  const history = sqlite.prepare(
    `select cast((recorded_at - ?) / ? as integer) bucket, count(*) count,
       min(temperature), avg(temperature), max(temperature), min(humidity), avg(humidity),
       max(humidity), min(heart_rate), avg(heart_rate), max(heart_rate)
     from readings where device_id = ? and recorded_at >= ? and recorded_at < ?
     group by 1 order by 1`,
  );
  let t0 = performance.now();
  const buckets = history.all(from, bucketMs, deviceId, from, to);
  const historyMs = performance.now() - t0;
  const page = sqlite.prepare(
    `select recorded_at, status, risk_band from readings
     where device_id = ? and recorded_at > ? and recorded_at <= ? order by recorded_at limit 5000`,
  );
  t0 = performance.now();
  const tally = new BacktestTally();
  let after = now - DAYS * DAY - 1;
  let count = 0;
  for (;;) {
    const rows = page.all(deviceId, after, now);
    for (const r of rows)
      tally.add({
        at: r.recorded_at,
        status: asVitalsStatus(r.status) ?? 'SAFE',
        risk_band: asVitalsStatus(r.risk_band),
      });
    count += rows.length;
    if (rows.length < 5000) break;
    after = rows.at(-1).recorded_at;
  }
  tally.result();
  return {
    history: historyMs,
    historyRows: buckets.reduce((n, b) => n + b.count, 0),
    backtest: performance.now() - t0,
    backtestRows: count,
  };
}
