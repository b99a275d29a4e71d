// The floor under durable ingest: a bare Fastify route that stores each reading as the issue
// asks of any durable design, and does nothing else. No key check, no validation, no status,
// heat risk, alerts or stream: only the storage. The readings that arrived in one turn of the
// event loop are inserted into the same readings table (its two indexes included) and update
// their collar's row in one transaction; the WAL is flushed on the thread pool, beside the
// next batches, and each 201 is sent after its flush. (Gathering for 2 ms, as PawGuard does
// for its acknowledgement latency, measured lower here: 0.44–0.45 of the bare route against
// 0.45–0.54.)
// Forked by ingest.mjs beside the bare route: it shows how much of the bare route's throughput
// the storage alone leaves on this machine. Tells its port.
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
  CREATE TABLE readings (id INTEGER PRIMARY KEY, device_id TEXT NOT NULL REFERENCES devices(id),
    recorded_at INTEGER NOT NULL, received_at INTEGER NOT NULL, temperature REAL NOT NULL,
    humidity REAL NOT NULL, heart_rate INTEGER, activity_level INTEGER, battery INTEGER,
    status TEXT NOT NULL, reported_status TEXT, lat REAL, lon REAL);
  CREATE UNIQUE INDEX readings_device_time_uq ON readings (device_id, recorded_at);
  CREATE INDEX readings_recorded_at_idx ON readings (recorded_at);
`);
const addDevice = sqlite.prepare('INSERT OR IGNORE INTO devices (id) VALUES (?)');
const insert = sqlite.prepare(`
  INSERT INTO readings (device_id, recorded_at, received_at, temperature, humidity, heart_rate,
    activity_level, battery, status, reported_status)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'normal', ?)
  ON CONFLICT (device_id, recorded_at) DO NOTHING RETURNING id`);
const touch = sqlite.prepare(`
  UPDATE devices SET last_seen = ?, battery_level = coalesce(?, battery_level), temperature = ?,
    humidity = ?, heart_rate = coalesce(?, heart_rate), activity_level = coalesce(?, activity_level)
  WHERE id = ?`);
const wal = fs.openSync(`${file}-wal`, 'r');

let gathered = [];
const store = sqlite.transaction((batch, now) => {
  for (const { id, r } of batch) {
    addDevice.run(id);
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

function commit() {
  const batch = gathered;
  gathered = [];
  try {
    store(batch, Date.now());
  } catch (err) {
    for (const { done } of batch) done(err);
    return;
  }
  fs.fsync(wal, (err) => {
    for (const { done } of batch) done(err);
  });
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
