// GET /api/dogs/{id}/activity?days=90 for a dog whose collar has 90 days of activity: the
// activity job's hour rows (2,160) and walks (180) and today's minute rollups, written directly
// as bench/rollups.mjs writes its readings, the server stopped. SQLite, the default.
// Budget (issue 29): p99 ≤ 50 ms. Closed loop, one caller, over HTTP.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  account,
  benchSeconds,
  cpuSeconds,
  fleet,
  fmt,
  met,
  percentile,
  startServer,
} from './lib.mjs';

const EMAIL = 'activity@bench.test';
const DAYS = 90;
const HOUR = 3_600_000;
const MINUTE = 60_000;

export async function run() {
  const seconds = benchSeconds(10);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-bench-activity-'));
  try {
    let server = await startServer({ DATA_DIR: dataDir });
    const [collar] = await fleet(server.base, 1, EMAIL);
    const { token } = await account(server.base, EMAIL);
    const dog = await (
      await fetch(`${server.base}/api/dogs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Bench', breed: 'Border Collie', age: 4, weight: 40 }),
      })
    ).json();
    await server.stop();

    const filled = fill(dataDir, collar.id, dog.dog.id, Date.now());
    server = await startServer({ DATA_DIR: dataDir });
    try {
      const url = `${server.base}/api/dogs/${dog.dog.id}/activity?days=${DAYS}`;
      const headers = { authorization: `Bearer ${token}` };
      const check = await (await fetch(url, { headers })).json();
      const active = check.days.reduce((n, d) => n + d.active_minutes, 0);
      const request = async () => {
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        return res.ok;
      };
      await timedLoop(2, request); // warm-up
      const cpu0 = cpuSeconds(server.pid);
      const r = await timedLoop(seconds, request);
      const cpu = cpuSeconds(server.pid) - cpu0;
      console.log(
        `activity    GET /api/dogs/{id}/activity?days=${DAYS} on ${filled.hours} activity hours, ` +
          `${filled.walks} walks and ${filled.minutes} minute rollups (${check.days.length} days, ` +
          `${active} active minutes in all): p50 ${fmt(r.p50)} ms, p99 ${fmt(r.p99)} ms ` +
          `(${r.n} calls in ${seconds} s, errors ${r.errors}; budget p99 ≤ 50 ms: ${met(r.p99 <= 50)}); ` +
          `server CPU ${fmt((cpu / Math.max(1, r.n)) * 1000, 2)} ms a call`,
      );
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** One caller in a loop for `seconds`: `{ n, errors, p50, p99 }` of its latencies (ms). */
async function timedLoop(seconds, request) {
  const end = performance.now() + seconds * 1000;
  const latencies = [];
  let errors = 0;
  while (performance.now() < end) {
    const t0 = performance.now();
    try {
      if (!(await request())) errors++;
    } catch {
      errors++;
    }
    latencies.push(performance.now() - t0);
  }
  latencies.sort((a, b) => a - b);
  return {
    n: latencies.length,
    errors,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

/**
 * 90 days of hourly activity for the collar (active by day, still by night, a walk each
 * morning and evening) ending with the last whole hour, and today's minute rollups with their
 * hour rollups, the collar assigned to the dog.
 */
function fill(dataDir, deviceId, dogId, now) {
  const sqlite = new Database(path.join(dataDir, 'pawguard.db'));
  try {
    sqlite.prepare('update devices set dog_id = ? where id = ?').run(dogId, deviceId);
    const hour = sqlite.prepare(
      `insert into activity_hours (device_uuid, hour_at, source_count, active, vigorous, heat, still,
         worn, still_hr_sum, still_hr_count, safe_minutes, warning_minutes, danger_minutes,
         critical_minutes, max_heat_index, max_level)
       values (?, ?, ?, ?, ?, ?, ?, 60, ?, ?, 60, 0, 0, 0, ?, 0)`,
    );
    const walk = sqlite.prepare(
      `insert into activity_walks (device_uuid, start_at, minutes, active_minutes, peak_heat_index, peak_level)
       values (?, ?, ?, ?, ?, 0)`,
    );
    const rollup = sqlite.prepare(
      `insert into reading_rollups (device_uuid, bucket_seconds, bucket_at, first_at, last_at, count,
         temperature_min, temperature_max, temperature_sum, temperature_count,
         humidity_min, humidity_max, humidity_sum, humidity_count,
         heart_rate_min, heart_rate_max, heart_rate_sum, heart_rate_count,
         activity_min, activity_max, activity_sum, activity_count,
         status_first, status_last, status_max, status_rises, status_elevated_ms,
         level_first, level_last, level_max, level_rises, level_elevated_ms,
         level_head_status, level_tail_status, level_quiet_spells)
       values (?, ?, ?, ?, ?, ?, 24, 24, ?, ?, 50, 50, ?, ?, 80, 80, ?, ?, ?, ?, ?, ?,
         0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
       on conflict do nothing`,
    );
    const lastHour = Math.floor(now / HOUR) * HOUR;
    let hours = 0;
    let walks = 0;
    let minutes = 0;
    sqlite.transaction(() => {
      for (let at = lastHour - DAYS * 24 * HOUR; at < lastHour; at += HOUR) {
        const h = new Date(at).getUTCHours();
        const night = h < 6 || h >= 22;
        const active = night ? 0 : (h * 7) % 25;
        const still = night ? 55 : 20;
        hour.run(deviceId, at, 60, active, active >> 2, 0, still, still * 75, still, 24);
        hours++;
        if (h === 7 || h === 18) {
          walk.run(deviceId, at + 5 * MINUTE, 30, 28, 25);
          walks++;
        }
      }
      // Today's minutes (a reading each), and their hours' rollups.
      const dayStart = now - 24 * HOUR;
      const counts = new Map();
      for (let at = Math.floor(dayStart / MINUTE) * MINUTE; at < now - MINUTE; at += MINUTE) {
        const level = (at / MINUTE) % 90;
        rollup.run(deviceId, 60, at, at, at, 1, 24, 1, 50, 1, 80, 1, level, level, level, 1);
        minutes++;
        const hAt = Math.floor(at / HOUR) * HOUR;
        counts.set(hAt, (counts.get(hAt) ?? 0) + 1);
      }
      for (const [hAt, n] of counts)
        rollup.run(
          deviceId,
          3600,
          hAt,
          hAt,
          hAt,
          n,
          24 * n,
          n,
          50 * n,
          n,
          80 * n,
          n,
          0,
          89,
          45 * n,
          n,
        );
    })();
    return { hours, walks, minutes };
  } finally {
    sqlite.close();
  }
}
