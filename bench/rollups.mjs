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
    const month = await monthOfReadings(dataDir, heavy.id, now);
    const sqlite = new Database(path.join(dataDir, 'pawguard.db'), { readonly: true });
    const before = rawScans(sqlite, heavy.id, now);
    sqlite.close();
    console.log(
      `rollups     a collar with ${(month.rows / 1e6).toFixed(2)} M readings (one a second for ${DAYS} days) ` +
        `stored directly in ${fmt(month.fillSeconds)} s; summed up into ${month.rollups} rollups ` +
        `in ${fmt(month.backfillSeconds)} s (what migration 015 costs such a collar)\n` +
        `            before (the raw scans the server ran, in process): history?range=7d ${fmt(before.history)} ms ` +
        `(${before.historyRows} readings), risk/backtest?days=30 ${fmt(before.backtest)} ms (${before.backtestRows} readings)`,
    );

    server = await startServer({ DATA_DIR: dataDir });
    try {
      const { token } = await account(server.base, EMAIL);
      const postAs = (collar) => async () => {
        const res = await fetch(`${server.base}/api/devices/${collar.device_id}/vitals`, {
          method: 'POST',
          headers: {
            authorization: `Device ${collar.device_key}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ temperature: 24, humidity: 50 }),
        });
        await res.arrayBuffer();
        return res.ok;
      };
      const post = postAs(other);
      // Checked once: the answers cover the month.
      const check = await (
        await fetch(`${server.base}/api/devices/${heavy.id}/risk/backtest?days=30`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).json();
      await fixedRate({ rate: ACK_RATE, seconds: 2, request: post }); // warm-up
      const idle = await fixedRate({ rate: ACK_RATE, seconds, request: post });
      const reads = readLoop({ base: server.base, token, deviceId: heavy.id });
      const cpu0 = cpuSeconds(server.pid);
      // The read collar reports too, a reading a second: every kept answer of it is dropped
      // each second (services/read-answers.ts), as on a collar that is worn.
      const [busy, live] = await Promise.all([
        fixedRate({ rate: ACK_RATE, seconds, request: post }),
        fixedRate({ rate: 1, seconds, request: postAs(heavy) }),
      ]);
      const { history: h, backtest: b, errors } = await reads.stop();
      const cpu = cpuSeconds(server.pid) - cpu0;
      console.log(
        `            after (rollups, over HTTP, ${READERS} callers looping for ${seconds} s): ` +
          `history?range=7d p50 ${fmt(h.p50)} ms, p99 ${fmt(h.p99)} ms (${h.n} calls); ` +
          `risk/backtest?days=30 p50 ${fmt(b.p50)} ms, p99 ${fmt(b.p99)} ms (${b.n} calls; ` +
          `${check.readings} readings summed); errors ${errors} ` +
          `(budget p99 ≤ 50 ms: ${met(h.p99 <= 50 && b.p99 <= 50)}); ` +
          `server CPU ${fmt((cpu / (h.n + b.n + busy.sent + live.sent)) * 1000, 2)} ms a request; ` +
          `the read collar posting a reading a second meanwhile (errors ${live.errors})\n` +
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
 * Fills the SQLite database in `dataDir` (the server stopped) with a month of one-second
 * readings for the collar `deviceId` ending at `now`, then sums them into rollups with
 * migration 015's backfill, as an upgrade would: `{ rows, fillSeconds, backfillSeconds,
 * rollups }` (rollups: "43201 minute and 721 hour").
 */
export async function monthOfReadings(dataDir, deviceId, now) {
  const sqlite = new Database(path.join(dataDir, 'pawguard.db'));
  try {
    const stored = fill(sqlite, deviceId, now);
    const { backfillRollups } =
      await import('../apps/server/src/db/migrations/015-reading-rollups.ts');
    const renamed = await import('../apps/server/src/db/migrations/018-device-uuid.ts');
    const db = new Kysely({ dialect: new SqliteDialect({ database: sqlite }) });
    // The backfill as migration 015 wrote it, on the columns as they were then (018 undone).
    await renamed.down(db);
    const t0 = performance.now();
    await backfillRollups(db);
    const backfillSeconds = (performance.now() - t0) / 1000;
    await renamed.up(db);
    const rollups = sqlite
      .prepare('select bucket_seconds, count(*) n from reading_rollups group by 1 order by 1')
      .all()
      .map((r) => `${r.n} ${r.bucket_seconds === 60 ? 'minute' : 'hour'}`)
      .join(' and ');
    await db.destroy(); // closes sqlite
    return { rows: stored.rows, fillSeconds: stored.seconds, backfillSeconds, rollups };
  } finally {
    if (sqlite.open) sqlite.close();
  }
}

/**
 * `readers` callers looping on `history?range=7d` and `risk/backtest?days=30` of the collar
 * `deviceId` (by its uuid), in turn, as its owner (`token`), until `stop()`, which resolves
 * with each endpoint's `{ n, p50, p99 }` and the errors (any answer but 200). `headers(n)`
 * adds headers to the n-th request.
 */
export function readLoop({ base, token, deviceId, readers = READERS, headers = () => ({}) }) {
  const reads = { history: [], backtest: [] };
  // Answered 429 (the account's chart reads, decision 0046): counted, not timed.
  const refused = { history: 0, backtest: 0 };
  let errors = 0;
  let stopped = false;
  const loops = Array.from({ length: readers }, async (_, i) => {
    for (let n = i; !stopped; n++) {
      const which = n % 2 ? 'backtest' : 'history';
      const url = which === 'history' ? 'history?range=7d' : `risk/backtest?days=${DAYS}`;
      const t0 = performance.now();
      try {
        const res = await fetch(`${base}/api/devices/${deviceId}/${url}`, {
          headers: { authorization: `Bearer ${token}`, ...headers(n) },
        });
        await res.arrayBuffer();
        if (res.status === 429) {
          refused[which]++;
          continue;
        }
        if (!res.ok) errors++;
      } catch {
        errors++;
      }
      reads[which].push(performance.now() - t0);
    }
  });
  const figures = (list) => {
    list.sort((a, b) => a - b);
    return { n: list.length, p50: percentile(list, 50), p99: percentile(list, 99) };
  };
  return {
    async stop() {
      stopped = true;
      await Promise.all(loops);
      return {
        history: { ...figures(reads.history), refused: refused.history },
        backtest: { ...figures(reads.backtest), refused: refused.backtest },
        errors,
      };
    },
  };
}

/**
 * A month of one-second readings for `deviceId`, ending now: a daily swing of temperature
 * that crosses the default warning threshold (85 °F) in the afternoons, with the heat-risk
 * model's band a little ahead of it.
 */
function fill(sqlite, deviceId, now) {
  const t0 = performance.now();
  const insert = sqlite.prepare(
    `insert into readings (device_uuid, recorded_at, received_at, temperature, humidity, heart_rate,
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
     from readings where device_uuid = ? and recorded_at >= ? and recorded_at < ?
     group by 1 order by 1`,
  );
  let t0 = performance.now();
  const buckets = history.all(from, bucketMs, deviceId, from, to);
  const historyMs = performance.now() - t0;
  const page = sqlite.prepare(
    `select recorded_at, status, risk_band from readings
     where device_uuid = ? and recorded_at > ? and recorded_at <= ? order by recorded_at limit 5000`,
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
