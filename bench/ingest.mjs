// Ingest: single readings over HTTP from many collars, durable (the 201 comes after the
// commit), against a bare Fastify route taking the same POST in the same run; the
// acknowledgement latency at a steady 2,000 readings/s; PostgreSQL when DATABASE_URL is set;
// QoS 1 over MQTT from 1,000 connected collars. Budgets (DESIGN §9): throughput ≥ 0.5 of the
// bare route's (aim 0.7); p99 ≤ 25 ms at 2,000/s; and ≥ 0.6 of the storage floor's (aim 0.8).
// With `--pinned`, the throughputs alone, each server held to core 0 and its load generator
// to core 1.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cpuStages, mainThreadProfile, profileClockUs } from './cpu-stages.mjs';
import {
  benchSeconds,
  cpuSeconds,
  fmt,
  freePort,
  fleet,
  met,
  pin,
  startBareServer,
  startServer,
  startWorker,
  temporaryPgDatabase,
} from './lib.mjs';

const COLLARS = 1000;
const CONCURRENCY = 100;
const RATE = 2000;

/**
 * Closed-loop throughput of one target, with the CPU seconds of it and of the generator, and
 * the measured phase's span on the CPU profiles' clock.
 */
async function throughput(target, collars, seconds, cpu) {
  const job = { kind: 'post-closed', base: target.base, collars, concurrency: CONCURRENCY };
  await startWorker({ ...job, seconds: 1 }, { cpu }).result; // warm-up
  const cpu0 = cpuSeconds(target.pid);
  const fromUs = profileClockUs();
  const r = await startWorker({ ...job, seconds }, { cpu }).result;
  const toUs = profileClockUs();
  return { ...r, serverCpu: cpuSeconds(target.pid) - cpu0, span: { fromUs, toUs } };
}

async function ackLatency(server, collars, seconds) {
  const cpu0 = cpuSeconds(server.pid);
  const r = await startWorker({
    kind: 'post-rate',
    base: server.base,
    collars,
    rate: RATE,
    seconds,
  }).result;
  return { ...r, serverCpu: cpuSeconds(server.pid) - cpu0 };
}

const perReading = (cpu, n) => `${fmt((cpu / n) * 1e6, 0)} µs`;

const throughputLine = (name, t, seconds) =>
  `              ${name.padEnd(19)} ${fmt(t.perSecond, 0)}/s, errors ${t.errors}; server CPU ${fmt(t.serverCpu, 2)} s (${perReading(t.serverCpu, t.perSecond * seconds)}/reading), load generator CPU ${fmt(t.cpu, 2)} s\n`;

/**
 * The HTTP figures for one database: throughput beside the bare route's (and, when given, the
 * storage floor's: the bare route storing each reading durably and doing nothing else), then
 * latency, unless `pinned` (servers on core 0, load generators on core 1: throughputs alone).
 */
async function httpFigures(label, server, bare, collars, seconds, floor = null, pinned = false) {
  const cpu = pinned ? 1 : undefined;
  const b = await throughput(bare, collars, seconds, cpu);
  const f = floor && (await throughput(floor, collars, seconds, cpu));
  const p = await throughput(server, collars, seconds, cpu);
  server.profiled = { span: p.span, readings: p.perSecond * seconds };
  const ratio = p.perSecond / b.perSecond;
  const ofFloor = f && p.perSecond / f.perSecond;
  console.log(
    `ingest      ${label}: single readings over HTTP from ${COLLARS} collars, ${CONCURRENCY} in flight, ${seconds} s each` +
      (pinned ? ', each server on core 0 and its load generator on core 1' : '') +
      '\n' +
      throughputLine('bare Fastify route', b, seconds) +
      (f ? throughputLine('storage floor', f, seconds) : '') +
      throughputLine('PawGuard (durable)', p, seconds) +
      `              ratio ${fmt(ratio, 2)} (budget ≥ 0.5, aim 0.7: ${met(ratio >= 0.5)})` +
      (f ? `; the storage floor alone: ${fmt(f.perSecond / b.perSecond, 2)}` : '') +
      (f
        ? `\n              PawGuard / storage floor ${fmt(ofFloor, 2)} (budget ≥ 0.6, aim 0.8: ${met(ofFloor >= 0.6)})`
        : ''),
  );
  if (pinned) return;
  const l = await ackLatency(server, collars, seconds * 2);
  console.log(
    `ingest ack  ${label}: ${RATE} readings/s for ${seconds * 2} s (open model): p50 ${fmt(l.p50)} ms, p99 ${fmt(l.p99)} ms, ` +
      `max ${fmt(l.max)} ms, errors ${l.errors}/${l.sent}; server CPU ${fmt(l.serverCpu, 2)} s, load generator CPU ${fmt(l.cpu, 2)} s ` +
      `(budget p99 ≤ 25 ms: ${met(l.p99 <= 25)})`,
  );
}

async function mqttFigures(server, mqttPort, collars, seconds) {
  const cpu0 = cpuSeconds(server.pid);
  try {
    const r = await startWorker({
      kind: 'mqtt',
      url: `mqtt://127.0.0.1:${mqttPort}`,
      collars,
      seconds,
    }).result;
    console.log(
      `mqtt        ${r.connected} collars connected in ${fmt(r.connectSeconds, 1)} s, each publishing QoS 1 and waiting for its PUBACK (after the commit), ${seconds} s: ` +
        `${fmt(r.perSecond, 0)} readings/s, errors ${r.errors}; server CPU ${fmt(cpuSeconds(server.pid) - cpu0, 2)} s (connections included), load generator CPU ${fmt(r.cpu, 2)} s`,
    );
  } catch (err) {
    console.log(`mqtt        not measured: ${err.message.split('\n')[0]}`);
  }
}

/**
 * `--profile`: where the server's CPU went during the SQLite throughput phase, by stage (the
 * source file, package or part of Node it ran in; bench/cpu-stages.mjs), per durable reading.
 * The profiler itself slows the server (about 10–20 %): the shares are the figure, not the
 * throughput of that run.
 */
function printStages(profileDir, { span, readings }) {
  const { busyMs, stages } = cpuStages(mainThreadProfile(profileDir), {
    ...span,
    root: path.resolve(import.meta.dirname, '..'),
  });
  const perReading = (ms) => `${fmt((ms * 1000) / readings, 1)} µs`;
  const lines = stages
    .filter((s) => s.ms / busyMs >= 0.005)
    .map(
      (s) =>
        `              ${perReading(s.ms).padStart(9)}  ${fmt((s.ms / busyMs) * 100, 1).padStart(5)} %  ${s.stage}`,
    );
  console.log(
    `ingest CPU  SQLite, the PawGuard phase under the profiler: ${perReading(busyMs)} of the main thread a durable reading (${fmt(readings, 0)} readings), by stage (≥ 0.5 %):\n` +
      lines.join('\n'),
  );
}

export async function run(options = []) {
  const seconds = benchSeconds(5);
  const pinned = options.includes('--pinned');
  const mqttPort = await freePort();
  const profileDir = options.includes('--profile')
    ? fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-bench-profile-'))
    : null;
  const bare = await startBareServer();
  if (pinned) pin(bare.pid, 0);
  try {
    // A thousand collars from one address: the per-address cap is for the open internet.
    const server = await startServer({
      MQTT_PORT: String(mqttPort),
      MQTT_MAX_CONNECTIONS_PER_ADDRESS: '0',
      ...(profileDir && {
        NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir} --cpu-prof-interval=250`,
      }),
    });
    try {
      const collars = await fleet(server.base, COLLARS);
      const floor = await startBareServer('floor-server.mjs');
      if (pinned) {
        pin(server.pid, 0);
        pin(floor.pid, 0);
      }
      try {
        await httpFigures('SQLite', server, bare, collars, seconds, floor, pinned);
      } finally {
        await floor.stop();
      }
      if (!pinned) await mqttFigures(server, mqttPort, collars, seconds);
    } finally {
      await server.stop();
    }
    if (profileDir) {
      printStages(profileDir, server.profiled);
      fs.rmSync(profileDir, { recursive: true, force: true });
    }
    if (pinned) return;
    if (!process.env.DATABASE_URL) {
      console.log('ingest      PostgreSQL: not measured (set DATABASE_URL to measure it)');
      return;
    }
    const pg = await temporaryPgDatabase(process.env.DATABASE_URL);
    try {
      const server = await startServer({
        DATABASE_URL: pg.url,
        JWT_SECRET: randomBytes(48).toString('base64url'),
      });
      try {
        await httpFigures('PostgreSQL', server, bare, await fleet(server.base, COLLARS), seconds);
      } finally {
        await server.stop();
      }
    } finally {
      await pg.drop();
    }
  } finally {
    await bare.stop();
  }
}
