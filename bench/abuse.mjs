// Abuse: a flood of 1,000-reading lists by one collar's key and by an owner's token on their
// own collar, while 20 other collars each post a reading a second (RES-7, DEV-7). The server
// runs with the default budgets (RATE_LIMIT_MULTIPLIER=1). Prints the other collars'
// acknowledgement p50/p99 without and with the flood, and how many flood readings were
// stored and refused. Budget (DESIGN §9): the other collars' ack p99 ≤ 50 ms during the flood.
import { collarsForUser } from '@pawguard/collar-sim/provision';
import {
  account,
  adminToken,
  benchSeconds,
  cpuSeconds,
  fmt,
  met,
  startServer,
  startWorker,
} from './lib.mjs';

const QUIET_COLLARS = 20;

export async function run() {
  const seconds = benchSeconds(10);
  const server = await startServer({ RATE_LIMIT_MULTIPLIER: '1' });
  try {
    const admin = await adminToken(server.base);
    const collarsOf = async (email, n) =>
      collarsForUser(server.base, admin, (await account(server.base, email)).user.id, n);
    const [byKey] = await collarsOf('flood-key@bench.test', 1);
    const owner = await account(server.base, 'flood-owner@bench.test');
    const [byToken] = await collarsForUser(server.base, admin, owner.user.id, 1);
    const quiet = await collarsOf('quiet@bench.test', QUIET_COLLARS);
    const paced = (s) =>
      startWorker({
        kind: 'post-rate',
        base: server.base,
        collars: quiet,
        rate: QUIET_COLLARS,
        seconds: s,
      }).result;

    const calm = await paced(Math.max(3, Math.round(seconds / 2)));
    const cpu0 = cpuSeconds(server.pid);
    const flood = startWorker({
      kind: 'flood',
      base: server.base,
      targets: [
        { device_id: byKey.device_id, authorization: `Device ${byKey.device_key}` },
        { device_id: byToken.device_id, authorization: `Bearer ${owner.token}` },
      ],
      concurrency: 4,
      seconds: seconds + 1,
    });
    await new Promise((r) => setTimeout(r, 500));
    const busy = await paced(seconds);
    const f = await flood.result;
    const cpu = cpuSeconds(server.pid) - cpu0;
    const line = (name, c) =>
      `${name}: ${c.stored.toLocaleString('en-US')} readings stored, ${c.refused.toLocaleString('en-US')} refused ` +
      `(${c.refusals.toLocaleString('en-US')} × 429${c.other ? `, ${c.other} other answers` : ''})`;
    console.log(
      `abuse       ${QUIET_COLLARS} collars posting a reading a second each, acknowledgement: ` +
        `alone p50 ${fmt(calm.p50)} ms, p99 ${fmt(calm.p99)} ms (errors ${calm.errors}/${calm.sent}); ` +
        `during a ${seconds} s flood of 1,000-reading lists (4 clients each by key and by owner token) ` +
        `p50 ${fmt(busy.p50)} ms, p99 ${fmt(busy.p99)} ms, max ${fmt(busy.max)} ms (errors ${busy.errors}/${busy.sent}; ` +
        `budget p99 ≤ 50 ms: ${met(busy.p99 <= 50)})\n` +
        `              flood by collar key  ${line('', f.counts[0]).slice(2)}\n` +
        `              flood by owner token ${line('', f.counts[1]).slice(2)}\n` +
        `              server CPU during the flood ${fmt(cpu, 2)} s; flood generator CPU ${fmt(f.cpu, 2)} s`,
    );
  } finally {
    await server.stop();
  }
}
