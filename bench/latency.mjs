// The live stream: how long from a collar's POST to the owner's browser receiving its
// `reading` event, while 2,000 readings/s of other collars arrive and 1,000 other stream
// clients are connected; and the server memory an idle stream client costs.
// Budgets (DESIGN §9): p99 ≤ 50 ms; ≤ 20 KiB per idle stream client.
import {
  account,
  benchSeconds,
  fleet,
  fmt,
  met,
  rssKiB,
  startServer,
  startWorker,
  underIngestLoad,
} from './lib.mjs';

const STREAM_CLIENTS = 1000;
const BACKGROUND_RATE = 2000;
const PROBE_RATE = 20;

export async function run() {
  const seconds = benchSeconds(10);
  const server = await startServer();
  try {
    // Three owners: the one whose stream is timed (one collar), the one whose 1,000 collars
    // make the background load, and the one with 1,000 browsers open and nothing arriving.
    const [probeCollar] = await fleet(server.base, 1, 'watcher@bench.test');
    const watcher = await account(server.base, 'watcher@bench.test');
    const background = await fleet(server.base, 1000, 'fleet@bench.test');
    const idle = await account(server.base, 'idle@bench.test');

    // Warm up the reading and stream paths before measuring memory.
    await startWorker({
      kind: 'probe',
      base: server.base,
      token: watcher.token,
      collar: probeCollar,
      rate: 50,
      seconds: 2,
    }).result;

    const rss0 = rssKiB(server.pid);
    const streams = startWorker({
      kind: 'streams',
      base: server.base,
      token: idle.token,
      count: STREAM_CLIENTS,
    });
    const { open } = await streams.ready;
    await new Promise((r) => setTimeout(r, 2000));
    const perClient = (rssKiB(server.pid) - rss0) / open;
    console.log(
      `stream mem  ${open} idle stream clients: server RSS +${fmt(perClient, 1)} KiB per client ` +
        `(budget ≤ 20 KiB: ${met(perClient <= 20)})`,
    );

    const {
      measured: p,
      ingest: l,
      serverCpu: cpu,
    } = await underIngestLoad(
      server,
      { collars: background, rate: BACKGROUND_RATE, seconds },
      () =>
        startWorker({
          kind: 'probe',
          base: server.base,
          token: watcher.token,
          collar: probeCollar,
          rate: PROBE_RATE,
          seconds,
        }).result,
    );
    streams.stop();
    await streams.result;
    console.log(
      `stream lat  POST → reading event on the owner's stream, ${PROBE_RATE}/s for ${seconds} s, while ${BACKGROUND_RATE} readings/s ` +
        `arrive from other collars and ${open} other stream clients are connected: p50 ${fmt(p.p50)} ms, p99 ${fmt(p.p99)} ms, ` +
        `max ${fmt(p.max)} ms, events ${p.received}/${p.sent}${p.received < p.sent ? ' (a missing event counts as late as the wait for it)' : ''} (budget p99 ≤ 50 ms: ${met(p.p99 <= 50)})\n` +
        `              background: p99 ack ${fmt(l.p99)} ms, errors ${l.errors}/${l.sent}; server CPU ${fmt(cpu, 2)} s, ` +
        `load generator CPU ${fmt(l.cpu + p.cpu, 2)} s`,
    );
  } finally {
    await server.stop();
  }
}
