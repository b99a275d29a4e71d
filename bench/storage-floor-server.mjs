// The ceiling for ingest throughput on this machine: the bare route's POST, stored as PawGuard
// stores it and nothing more. Each reading is inserted with the same columns and indexes
// (RETURNING the row, as the answer needs it), its collar's row is updated with what a batch
// writes (last seen, latest vitals, the heat-risk state), readings that arrive together share
// one transaction gathered for 2 ms, and each answer waits for the WAL flush after its commit.
// No key check, validation, status, heat-risk model, alerts or live events: what PawGuard
// adds is the rest of its cost. Forked by ingest.mjs with the SQLite file of a stopped server
// whose collars are owned and have posted; tells its port.
import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';

const file = process.argv[2];
const GATHER_MS = 2;
const db = new SQLite(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
const collars = new Map(
  db
    .prepare('SELECT id, device_id, risk_state FROM devices WHERE user_id IS NOT NULL')
    .all()
    .map((row) => [row.device_id, row]),
);
const insert = db.prepare(
  `INSERT INTO readings (device_id, recorded_at, received_at, temperature, humidity, heart_rate,
     activity_level, battery, status, reported_status, lat, lon, risk_band, risk_score, risk_reasons)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'SAFE', NULL, NULL, NULL, 'SAFE', 0.5, ?)
   ON CONFLICT (device_id, recorded_at) DO NOTHING RETURNING *`,
);
const update = db.prepare(
  `UPDATE devices SET last_seen = ?, updated_at = ?, temperature_celsius = ?, humidity_percent = ?,
     heart_rate = ?, activity_level = ?, vitals_recorded_at = ?, risk_state = ?
   WHERE id = ? AND user_id IS NOT NULL`,
);
const REASONS = JSON.stringify(['heat index 22 °C (71 °F) at the collar, about 1.4× the risk']);
const wal = fs.openSync(`${file}-wal`, 'r');

let pending = [];
let timer = null;
let committing = false;

function commit() {
  timer = null;
  committing = true;
  const jobs = pending;
  pending = [];
  const now = Date.now();
  const seen = new Date(now).toISOString();
  db.exec('BEGIN');
  for (const job of jobs) {
    const { collar, reading: r } = job;
    const at = r.timestamp ?? now;
    job.row = insert.get(
      collar.id,
      at,
      now,
      r.temperature,
      r.humidity,
      r.heart_rate ?? null,
      r.activity_level ?? null,
      r.battery ?? null,
      REASONS,
    );
    update.run(
      seen,
      seen,
      r.temperature,
      r.humidity,
      r.heart_rate ?? null,
      r.activity_level ?? null,
      new Date(at).toISOString(),
      collar.risk_state,
      collar.id,
    );
  }
  db.exec('COMMIT');
  fs.fsync(wal, (err) => {
    for (const job of jobs) job.answer(err, job.row);
    committing = false;
    if (pending.length) timer = setTimeout(commit, GATHER_MS);
  });
}

const app = Fastify({ logger: false });
app.post('/api/devices/:deviceId/vitals', (request, reply) => {
  const collar = collars.get(request.params.deviceId);
  if (!collar) return reply.code(404).send({ error: 'Device not found' });
  pending.push({
    collar,
    reading: request.body,
    answer: (err, row) =>
      err ? reply.code(500).send({ error: err.message }) : reply.code(201).send({ vitals: row }),
  });
  if (!committing && !timer) timer = setTimeout(commit, GATHER_MS);
  return reply;
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.send({ port: app.server.address().port });
process.on('SIGTERM', () =>
  app.close().then(() => {
    db.close();
    process.exit(0);
  }),
);
