// `npm run bench [-- name …]`: builds when stale, then runs each benchmark against the real server and
// prints its figures. Figures, never pass/fail: compare runs on the same machine.
import os from 'node:os';
import { buildIfStale } from '../scripts/build-if-stale.mjs';
import { root } from './lib.mjs';

await buildIfStale({ root, log: (m) => console.warn(m) });
console.log(
  `PawGuard benchmarks on ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}; ` +
    `load average ${os.loadavg()[0].toFixed(1)} (other work on the machine skews every figure)`,
);
// `npm run bench -- gc-soak` runs only the benchmarks named.
const all = [
  'api-reads',
  'login',
  'ingest',
  'abuse-mqtt',
  'heat-risk',
  'alerts',
  'latency',
  'reads-under-load',
  'alert-latency',
  'gc-soak',
  'abuse',
  'metrics',
  'rollups',
  'activity',
  'web',
];
// Options after the names (`web --url http://…`) go to the benchmarks.
const args = process.argv.slice(2);
const firstOption = args.findIndex((a) => a.startsWith('--'));
const named = firstOption < 0 ? args : args.slice(0, firstOption);
const options = firstOption < 0 ? [] : args.slice(firstOption);
const names = named.length ? named : all;
for (const name of names) {
  if (!all.includes(name)) throw new Error(`No benchmark ${name}; there are: ${all.join(', ')}`);
  const mod = await import(`./${name}.mjs`);
  await mod.run(options);
}
