// The floor under durable ingest: a bare Fastify route that stores each reading as the issue
// asks and does nothing else. No key check, no validation, no status, heat risk, alerts or
// stream: only the storage. The readings that arrived in one turn of the event loop are
// inserted into a readings table shaped as PawGuard's (its columns and its two indexes) and
// update their collar's row in one transaction; the WAL is flushed on the thread pool, one
// flush at a time with the commits made during it sharing the next (as PawGuard's driver
// does), and each 201 is sent after its flush. Simpler than PawGuard's storage: the collar's
// row is written without its status, vitals status or latest-by-timestamp rule, and SQLite
// checkpoints inline. (Gathering for 2 ms, as PawGuard does, measured 0.44–0.45 of the bare
// route against 0.45–0.54 for one turn of the event loop, in one session.)
// Forked by ingest.mjs beside the bare route: it shows how much of the bare route's throughput
// the storage alone leaves on this machine, and so how much PawGuard's own work costs. Tells
// its port.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import Fastify from 'fastify';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-floor-'));
const file = path.join(dir, 'floor.db');
const sqlite = new Database(file);
sqlite.pragma('journal_mode = WAL');
sqlite.pragma('synchronous = NORMAL');
sqlite.exec(`
  CREATE TABLE devices (id TEXT PRIMARY KEY, last_seen INTEGER, battery_level INTEGER,
    temperature REAL, humidity REAL, heart_rate INTEGER, activity_level INTEGER);
  CREATE TABLE readings (id INTEGER PRIMARY KEY, device_uuid TEXT NOT NULL REFERENCES devices(id),
    recorded_at INTEGER NOT NULL, received_at INTEGER NOT NULL, temperature REAL NOT NULL,
    humidity REAL NOT NULL, heart_rate INTEGER, activity_level INTEGER, battery INTEGER,
    status TEXT NOT NULL, reported_status TEXT, lat REAL, lon REAL, risk_band TEXT,
    risk_score REAL, risk_reasons TEXT);
  CREATE UNIQUE INDEX readings_device_time_uq ON readings (device_uuid, recorded_at);
  CREATE INDEX readings_recorded_at_idx ON readings (recorded_at);
`);
// A collar's row is made the first time it posts (PawGuard's exist before their first reading).
const addDevice = sqlite.prepare('INSERT OR IGNORE INTO devices (id) VALUES (?)');
const known = new Set();
const insert = sqlite.prepare(`
  INSERT INTO readings (device_uuid, recorded_at, received_at, temperature, humidity, heart_rate,
    activity_level, battery, status, reported_status)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'normal', ?)
  ON CONFLICT (device_uuid, recorded_at) DO NOTHING RETURNING id`);
const touch = sqlite.prepare(`
  UPDATE devices SET last_seen = ?, battery_level = coalesce(?, battery_level), temperature = ?,
    humidity = ?, heart_rate = coalesce(?, heart_rate), activity_level = coalesce(?, activity_level)
  WHERE id = ?`);
const wal = fs.openSync(`${file}-wal`, 'r');

let gathered = [];
const store = sqlite.transaction((batch, now) => {
  for (const { id, r } of batch) {
    if (!known.has(id)) {
      addDevice.run(id);
      known.add(id);
    }
    const at = typeof r.timestamp === 'string' ? Date.parse(r.timestamp) : (r.timestamp ?? now);
    insert.get(
      id,
      at,
      now,
      r.temperature,
      r.humidity,
      r.heart_rate ?? null,
      r.activity_level ?? null,
      r.battery ?? null,
      r.status ?? null,
    );
    touch.run(
      now,
      r.battery ?? null,
      r.temperature,
      r.humidity,
      r.heart_rate ?? null,
      r.activity_level ?? null,
      id,
    );
  }
});

// One flush at a time: the batches committed while it runs wait for the next one.
let flushing = false;
let unflushed = [];
function flush() {
  flushing = true;
  const waiting = unflushed;
  unflushed = [];
  fs.fsync(wal, (err) => {
    for (const done of waiting) done(err);
    flushing = false;
    if (unflushed.length) flush();
  });
}

function commit() {
  const batch = gathered;
  gathered = [];
  try {
    store(batch, Date.now());
  } catch (err) {
    for (const { done } of batch) done(err);
    return;
  }
  for (const { done } of batch) unflushed.push(done);
  if (!flushing) flush();
}

const app = Fastify({ logger: false });
app.post('/api/devices/:deviceId/vitals', async (request, reply) => {
  const reading = request.body;
  await new Promise((resolve, reject) => {
    if (gathered.length === 0) setImmediate(commit);
    const done = (err) => (err ? reject(err) : resolve());
    gathered.push({ id: request.params.deviceId, r: reading, done });
  });
  return reply.code(201).send({ vitals: { device_id: request.params.deviceId, ...reading } });
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.send({ port: app.server.address().port });
process.on('SIGTERM', () =>
  app.close().then(() => {
    sqlite.close();
    fs.rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  }),
);
