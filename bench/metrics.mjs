// The metrics' cost: what the ingest hot path pays per upload and per commit for its counters
// and histograms, and what one scrape of GET /metrics costs. In process, on the server's own
// Metrics class; figures only.
import { Metrics, refusalFor } from '../apps/server/src/services/metrics.ts';

function perCall(label, n, fn) {
  for (let i = 0; i < n / 10; i++) fn(i); // warm up
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn(i);
  const ns = Number(process.hrtime.bigint() - start) / n;
  console.log(`  ${label.padEnd(52)} ${ns.toFixed(0).padStart(5)} ns per call`);
  return ns;
}

export async function run() {
  console.log("metrics     the hot path's instrumentation (in process, 1,000,000 calls each)");
  const m = new Metrics({
    defaultMetrics: true,
    sources: {
      openStreams: () => 12,
      mqttConnections: () => 340,
      outbox: async () => ({ pending: 3, oldest: new Date(Date.now() - 5_000).toISOString() }),
      now: () => Date.now(),
    },
  });
  const upload = perCall('an HTTP upload acknowledged (readings counter)', 1e6, (i) =>
    m.readingsIngested('http', 1 + (i & 3)),
  );
  perCall('an MQTT upload acknowledged', 1e6, (i) => m.readingsIngested('mqtt', 1 + (i & 3)));
  const commit = perCall('a commit (batch size and commit time histograms)', 1e6, (i) =>
    m.commit(1 + (i & 63), 2 + (i & 7)),
  );
  perCall('a refusal (labelled counter, by status)', 1e6, (i) =>
    m.ingestRefused('http', refusalFor(i & 1 ? 400 : 401)),
  );
  console.log(
    `  at 2,000 uploads/s in 500 commits/s: about ${((2000 * upload + 500 * commit) / 1e6).toFixed(2)} ms of CPU a second`,
  );
  for (let i = 0; i < 3; i++) await m.text(); // warm up
  const rounds = 200;
  const start = process.hrtime.bigint();
  let bytes = 0;
  for (let i = 0; i < rounds; i++) bytes = (await m.text()).length;
  const ms = Number(process.hrtime.bigint() - start) / 1e6 / rounds;
  console.log(`  one scrape: ${ms.toFixed(2)} ms, ${(bytes / 1024).toFixed(1)} KiB of text`);
}
