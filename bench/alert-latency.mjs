// Alerts: how long from a collar's CRITICAL reading to the owner's `notification` event on
// the live stream, to the alert e-mail accepted by an SMTP server on loopback, and to the push
// accepted by an https push receiver on loopback (decrypted with the browser's keys to tell
// which alert it is), while 2,000 readings/s of other collars arrive. Each probe is a collar of
// its own (the 15-minute cooldown is per device) and the probes are spread over owners (the
// hourly caps are per person). Budgets (DESIGN §9, issue 28): p99 ≤ 100 ms to the stream,
// ≤ 1 s to SMTP (aim for 250 ms), ≤ 1 s to the push service.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { startPushReceiver } from '../apps/server/test/helpers/push-receiver.ts';
import { createTestTls, trustEnv } from '../apps/server/test/helpers/test-ca.ts';
import {
  account,
  benchSeconds,
  fleet,
  fmt,
  freePort,
  met,
  openStream,
  percentile,
  root,
  startServer,
  streamTicket,
  underIngestLoad,
} from './lib.mjs';

const require = createRequire(`${root}/apps/server/package.json`);
const { SMTPServer } = require('smtp-server');

const BACKGROUND_RATE = Number(process.env.BENCH_ALERT_BACKGROUND ?? 2000);
const OWNERS = 3;
/** Probes per owner: within the hourly cap of 10 immediate alert mails per person. */
const PER_OWNER = 10;

/** An SMTP server that notes when each message (by Message-ID) was accepted. */
async function smtpSink() {
  const accepted = new Map();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      let head = '';
      stream.on('data', (c) => {
        if (head.length < 4096) head += c.toString('utf8');
      });
      stream.on('end', () => {
        const id = /^Message-ID:\s*<([^@>]+)@/im.exec(head)?.[1];
        if (id) accepted.set(id, Date.now());
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
  return { port, accepted, close: () => new Promise((r) => server.close(r)) };
}

/** The owner's live stream; calls onEvent(name, parsed data) per event; answers its closer. */
async function stream(base, token, onEvent) {
  const req = await openStream(base, await streamTicket(base, token), (name, data) =>
    onEvent(name, JSON.parse(data)),
  );
  return () => req.destroy();
}

export async function run() {
  const seconds = benchSeconds(10);
  const smtp = await smtpSink();
  // The push receiver's own certificate, which the server trusts as it would a push service's.
  const tlsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-bench-tls-'));
  const tls = await createTestTls(tlsDir);
  const receiver = await startPushReceiver({ tls });
  const server = await startServer({
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    PUSH_ALLOW_PRIVATE_ENDPOINTS: '1',
    ...trustEnv(tls),
  });
  const closers = [];
  try {
    const sentAt = new Map(); // device uuid → when its CRITICAL reading was posted
    const streamAt = new Map(); // device uuid → when its notification event arrived
    const mailOf = new Map(); // notification id → device uuid
    const probes = [];
    for (let o = 0; o < OWNERS; o++) {
      const email = `alerts${o}@bench.test`;
      const collars = await fleet(server.base, PER_OWNER, email);
      const { token } = await account(server.base, email);
      const sub = await fetch(`${server.base}/api/push/subscriptions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(receiver.subscription(email)),
      });
      if (sub.status !== 201) throw new Error(`push subscription answered ${sub.status}`);
      closers.push(
        await stream(server.base, token, (name, data) => {
          if (name !== 'notification') return;
          const { device, id } = data.notification;
          mailOf.set(`alert-${id}`, device);
          if (!streamAt.has(device)) streamAt.set(device, Date.now());
        }),
      );
      probes.push(...collars);
    }
    const background = await fleet(server.base, 1000, 'fleet@bench.test');

    const { ingest: l, serverCpu: cpu } = await underIngestLoad(
      server,
      { collars: background, rate: BACKGROUND_RATE, seconds },
      async () => {
        const gap = (seconds * 1000) / probes.length;
        for (const collar of probes) {
          const t0 = Date.now();
          sentAt.set(collar.id, t0);
          const res = await fetch(`${server.base}/api/devices/${collar.device_id}/vitals`, {
            method: 'POST',
            headers: {
              authorization: `Device ${collar.device_key}`,
              'content-type': 'application/json',
            },
            body: JSON.stringify({ temperature: 45, humidity: 40, timestamp: t0 }),
          });
          if (res.status !== 201) throw new Error(`probe reading answered ${res.status}`);
          await new Promise((r) => setTimeout(r, Math.max(0, gap - (Date.now() - t0))));
        }
        // The last mails and pushes: until every probe's has come, or 5 s.
        for (
          let waited = 0;
          (smtp.accepted.size < probes.length || receiver.received.length < probes.length) &&
          waited < 5000;
          waited += 50
        )
          await new Promise((r) => setTimeout(r, 50));
      },
    );

    const now = Date.now();
    const toStream = [];
    const toMail = [];
    for (const collar of probes) {
      const t0 = sentAt.get(collar.id);
      // A missing event or mail counts as at least as late as now: no survivor bias.
      toStream.push((streamAt.get(collar.id) ?? now) - t0);
    }
    const mailAt = new Map();
    for (const [key, at] of smtp.accepted) {
      const device = mailOf.get(key);
      if (device) mailAt.set(device, at);
    }
    for (const collar of probes)
      toMail.push((mailAt.get(collar.id) ?? now) - sentAt.get(collar.id));
    // Which collar a push is about: its payload opens that collar's card.
    const pushAt = new Map();
    for (const d of receiver.received) {
      const device = /#collar-(.+)$/.exec(d.payload?.url ?? '')?.[1];
      if (device && !pushAt.has(decodeURIComponent(device)))
        pushAt.set(decodeURIComponent(device), d.at);
    }
    const toPush = probes.map((c) => (pushAt.get(c.id) ?? now) - sentAt.get(c.id));
    toStream.sort((a, b) => a - b);
    toMail.sort((a, b) => a - b);
    toPush.sort((a, b) => a - b);
    const s = { p50: percentile(toStream, 50), p99: percentile(toStream, 99) };
    const m = { p50: percentile(toMail, 50), p99: percentile(toMail, 99) };
    const p = { p50: percentile(toPush, 50), p99: percentile(toPush, 99) };
    console.log(
      `alert lat   CRITICAL reading → notification on the owner's stream, ${probes.length} alerts over ${seconds} s while ${BACKGROUND_RATE} readings/s arrive: ` +
        `p50 ${fmt(s.p50)} ms, p99 ${fmt(s.p99)} ms, events ${streamAt.size}/${probes.length} (budget p99 ≤ 100 ms: ${met(s.p99 <= 100)})\n` +
        `            → alert e-mail accepted by the SMTP server: p50 ${fmt(m.p50)} ms, p99 ${fmt(m.p99)} ms, mails ${mailAt.size}/${probes.length} ` +
        `(budget p99 ≤ 1,000 ms: ${met(m.p99 <= 1000)}; aim 250 ms: ${met(m.p99 <= 250)})\n` +
        `            → push accepted by the push service: p50 ${fmt(p.p50)} ms, p99 ${fmt(p.p99)} ms, pushes ${pushAt.size}/${probes.length} ` +
        `(budget p99 ≤ 1,000 ms: ${met(p.p99 <= 1000)})\n` +
        `              background: p99 ack ${fmt(l.p99)} ms, errors ${l.errors}/${l.sent}; server CPU ${fmt(cpu, 2)} s, load generator CPU ${fmt(l.cpu, 2)} s`,
    );
  } finally {
    for (const close of closers) close();
    await server.stop();
    await smtp.close();
    await receiver.close();
    fs.rmSync(tlsDir, { recursive: true, force: true });
  }
}
