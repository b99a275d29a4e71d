// Abuse, on one server (SQLite, the default budgets: RATE_LIMIT_MULTIPLIER=1): 20 collars each
// post a reading a second (open model) and their acknowledgement is timed (a) alone, (b) during
// a flood of 1,000-reading lists by one collar's key and by an owner's token on their own
// collar (RES-7, DEV-7), (c) while two callers loop on `history?range=7d` and
// `risk/backtest?days=30` of a collar with a month of one-second readings (RES-8), and (d)
// during both; then one collar key's 10,000 retained MQTT publishes and the server's memory
// (DEV-5). Budgets (issue "Bounded under abuse"): the 20 collars' ack p99 ≤ 50 ms in (b)–(d);
// each flood stores its collar's minute budget and is refused past it; the reads p99 ≤ 50 ms;
// memory flat after the retained publishes. Figures only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { collarsForUser } from '@pawguard/collar-sim/provision';
import { retainedMemory } from './abuse-mqtt.mjs';
import {
  account,
  adminToken,
  benchSeconds,
  cpuSeconds,
  fmt,
  freePort,
  met,
  startServer,
  startWorker,
} from './lib.mjs';
import { monthOfReadings, readLoop } from './rollups.mjs';

const QUIET_COLLARS = 20;
/** A collar's readings a minute at the default budgets (docs/operations.md, "Ingest budgets"). */
const COLLAR_MINUTE = 12_000;
/** A list may end a window one list over (decision 0039). */
const LIST = 1_000;
const BUDGET_MS = 50;
/** The acknowledgement p99 is "unchanged" within this of the same run's (a): quiet runs' (a) spread. */
const UNCHANGED_MS = 10;
/** Collar keys sharing the 10,000 retained MQTT publishes. */
const MQTT_KEYS = 20;

export async function run() {
  const seconds = benchSeconds(6);
  const started = performance.now();
  const [load1, load5, load15] = os.loadavg();
  console.log(
    `abuse       load average at start ${fmt(load1)} / ${fmt(load5)} / ${fmt(load15)} (1, 5, 15 min) on ` +
      `${os.cpus().length} cores: above about 1 a core, other work shares the CPU and every latency below grows with it`,
  );
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-bench-abuse-'));
  try {
    // Everyone set up through the API on a first start; the month of readings is written
    // while the server is stopped; everything is measured on the second start.
    let server = await startServer({ DATA_DIR: dataDir });
    const admin = await adminToken(server.base);
    const collarsOf = async (email, n) =>
      collarsForUser(server.base, admin, (await account(server.base, email)).user.id, n);
    const quiet = await collarsOf('quiet@bench.test', QUIET_COLLARS);
    // A flood of its own for (b) and for (d): each starts with its collar's budget unspent.
    const floods = [];
    for (const phase of ['b', 'd']) {
      const [byKey] = await collarsOf(`flood-key-${phase}@bench.test`, 1);
      const [byToken] = await collarsOf(`flood-owner-${phase}@bench.test`, 1);
      floods.push({ byKey, byToken, email: `flood-owner-${phase}@bench.test` });
    }
    const [heavy] = await collarsOf('history@bench.test', 1);
    // One to warm up, then 500 attempts for each of the others (a key may connect 600 times a minute).
    const mqttCollars = await collarsOf('abuse-mqtt@bench.test', MQTT_KEYS + 1);
    await server.stop();
    const month = await monthOfReadings(dataDir, heavy.id, Date.now());
    console.log(
      `            set-up: a collar with ${(month.rows / 1e6).toFixed(2)} M readings (one a second for 30 days) ` +
        `written directly in ${fmt(month.fillSeconds)} s, summed into ${month.rollups} rollups in ${fmt(month.backfillSeconds)} s`,
    );

    const mqttPort = await freePort();
    server = await startServer(
      {
        DATA_DIR: dataDir,
        RATE_LIMIT_MULTIPLIER: '1',
        MQTT_PORT: String(mqttPort),
        // The readers' requests name an address of their own (X-Forwarded-For), as callers from
        // many addresses would: the per-address limit (1,200 requests a minute) holds one address
        // to 20 reads a second, and what is measured is what the reads cost the server.
        TRUST_PROXY: '127.0.0.1',
      },
      // For what the server keeps after the retained MQTT publishes (abuse-mqtt.mjs).
      { inspect: true },
    );
    try {
      const reader = (await account(server.base, 'history@bench.test')).token;
      for (const f of floods) f.token = (await account(server.base, f.email)).token;
      const paced = (s) =>
        startWorker({
          kind: 'post-rate',
          base: server.base,
          collars: quiet,
          rate: QUIET_COLLARS,
          seconds: s,
        }).result;
      const flood = ({ byKey, byToken, token }) =>
        startWorker({
          kind: 'flood',
          base: server.base,
          targets: [
            { device_id: byKey.device_id, authorization: `Device ${byKey.device_key}` },
            { device_id: byToken.device_id, authorization: `Bearer ${token}` },
          ],
          concurrency: 4,
          seconds: seconds + 1,
        });
      const reads = () =>
        readLoop({
          base: server.base,
          token: reader,
          deviceId: heavy.id,
          headers: (n) => ({ 'x-forwarded-for': `198.51.100.${n % 250}` }),
        });
      const settle = () => new Promise((r) => setTimeout(r, 500));

      // Every phase: the 20 collars for `seconds`, the abuse (if any) from half a second before.
      const phase = async ({ withFlood, withReads }) => {
        const cpu0 = cpuSeconds(server.pid);
        const f = withFlood ? flood(floods[withFlood === 'b' ? 0 : 1]) : null;
        const r = withReads ? reads() : null;
        if (f || r) await settle();
        const acks = await paced(seconds);
        const readFigures = r ? await r.stop() : null;
        const floodFigures = f ? await f.result : null;
        return {
          acks,
          reads: readFigures,
          flood: floodFigures,
          cpu: cpuSeconds(server.pid) - cpu0,
        };
      };
      await paced(2); // warm-up
      const a = await phase({});
      const b = await phase({ withFlood: 'b' });
      const c = await phase({ withReads: true });
      const d = await phase({ withFlood: 'd', withReads: true });

      const ack = (label, p, budget) =>
        `            ${label.padEnd(50)}p50 ${fmt(p.acks.p50).padStart(7)} ms, p99 ${fmt(p.acks.p99).padStart(7)} ms, ` +
        `max ${fmt(p.acks.max).padStart(7)} ms, errors ${p.acks.errors}/${p.acks.sent}; server CPU ${fmt(p.cpu, 2)} s` +
        (budget
          ? ` (budget p99 ≤ ${BUDGET_MS} ms: ${met(p.acks.p99 <= BUDGET_MS)})`
          : ' (baseline)');
      const floodLine = (label, p) =>
        p.flood.counts
          .map((n, i) => {
            const ok = n.stored <= COLLAR_MINUTE + LIST && n.refusals > 0 && n.other === 0;
            return (
              `            flood ${label} by ${i ? 'owner token' : 'collar key '}: ${n.stored.toLocaleString('en-US')} readings stored, ` +
              `${n.refused.toLocaleString('en-US')} refused (${n.refusals.toLocaleString('en-US')} × 429` +
              `${n.other ? `, ${n.other} other answers` : ''}) ` +
              `(budget ${COLLAR_MINUTE.toLocaleString('en-US')} a collar-minute stored, the rest refused: ${met(ok)})`
            );
          })
          .join('\n') + `; flood generator CPU ${fmt(p.flood.cpu, 2)} s`;
      const readLine = (label, p) => {
        const { history: h, backtest: t, errors } = p.reads;
        return (
          `            reads ${label}: history?range=7d p50 ${fmt(h.p50)} ms, p99 ${fmt(h.p99)} ms (${h.n} answered, ${h.refused} × 429); ` +
          `risk/backtest?days=30 p50 ${fmt(t.p50)} ms, p99 ${fmt(t.p99)} ms (${t.n} answered, ${t.refused} × 429); errors ${errors} ` +
          `(the account's budget holds the loop: ${met(h.refused + t.refused > 0 && errors === 0)}; the reads' own p99 is measured unthrottled by \`npm run bench -- rollups\`)`
        );
      };
      // "Unchanged while they loop": within the spread of quiet runs' baselines (bench/README).
      const unchanged = (p) =>
        `            (c) against (a): p50 ${fmt(p.acks.p50 - a.acks.p50, 1)} ms, p99 ${fmt(p.acks.p99 - a.acks.p99, 1)} ms ` +
        `(budget: p99 within ${UNCHANGED_MS} ms of (a): ${met(p.acks.p99 - a.acks.p99 <= UNCHANGED_MS)})`;
      console.log(
        [
          `            ${QUIET_COLLARS} other collars posting a reading a second each, ${seconds} s a phase; their acknowledgement:`,
          ack('(a) alone', a, false),
          ack('(b) during the ingest flood', b, true),
          ack('(c) during looping history and back-test reads', c, true),
          unchanged(c),
          ack('(d) during both', d, true),
          `            the flood: 1,000-reading lists as fast as 4 clients each can send them, by one collar's key and by an owner's token on their own collar`,
          floodLine('(b)', b),
          floodLine('(d)', d),
          `            the reads: 2 callers of one account looping on a collar with a month of one-second readings, each request from another address; the account's chart reads are 200 at once, then 20 a second (decision 0046), then 429, repeats held a second`,
          readLine('(c)', c),
          readLine('(d)', d),
        ].join('\n'),
      );

      const mqtt = await retainedMemory({
        server,
        url: `mqtt://127.0.0.1:${mqttPort}`,
        collars: mqttCollars,
        perCollar: 10_000 / MQTT_KEYS,
      });
      console.log(`            mqtt: ${mqtt.line}`);
    } finally {
      await server.stop();
    }
    console.log(`            took ${fmt((performance.now() - started) / 1000, 0)} s`);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
