#!/usr/bin/env node
// `npm run demo [-- --devices 6 --interval 5s --heatwave|--mild|--scenario NAME --mqtt]` (a
// heatwave unless --mild, or every dog in one of the simulator's scenarios): builds when stale,
// serves the app on the SQLite default in its own data directory (DATA_DIR, default
// ./data-demo), with an admin and a demo owner whose pets wear simulated collars. Ctrl-C stops
// everything: the simulator first, then the server's graceful shutdown (this process is the
// server).
import './require-node.mjs';
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { buildIfStale } from './build-if-stale.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const { values: args } = parseArgs({
  options: {
    devices: { type: 'string', default: '6' },
    interval: { type: 'string', default: '5s' },
    // The default: some dogs' collars climb into WARNING, DANGER and CRITICAL (alerts, mail).
    heatwave: { type: 'boolean', default: false },
    // Every dog has a mild day: nothing to alert about.
    mild: { type: 'boolean', default: false },
    // Every dog lives one named situation (npm run sim -- --help lists them).
    scenario: { type: 'string' },
    mqtt: { type: 'boolean', default: false },
  },
});

/** A port nobody listens on at `host`: `wanted` if free, else one the system picks. */
function freePort(host, wanted) {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => (wanted === 0 ? resolve(0) : resolve(freePort(host, 0))));
    probe.listen(wanted, host, () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** The demo's accounts, made up once per data directory and kept there (0600). */
function demoCredentials(dataDir) {
  const file = path.join(dataDir, 'demo-credentials.json');
  try {
    return { ...JSON.parse(fs.readFileSync(file, 'utf8')), file };
  } catch {
    const creds = {
      admin: { email: 'admin@localhost', password: randomBytes(12).toString('base64url') },
      owner: { email: 'demo@pawguard.local', password: randomBytes(9).toString('base64url') },
    };
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600 });
    return { ...creds, file };
  }
}

if (args.heatwave && args.mild) {
  console.error('Choose --heatwave or --mild, not both.');
  process.exit(2);
}
if (args.scenario !== undefined && (args.heatwave || args.mild)) {
  console.error('Choose --scenario, --heatwave or --mild, not two of them.');
  process.exit(2);
}

await buildIfStale({ root, log: (m) => console.warn(m) });

/**
 * Days of each new dog's ordinary life uploaded before the live readings: five weeks, so
 * that insights have the four weeks before this one to compare with, and the health
 * dashboard's 30 days are full.
 */
const HISTORY_DAYS = 35;
/** A scenario brings the past days it needs itself. */
const withHistory = args.scenario === undefined;

/**
 * The budgets' scale that lets every new collar's history in within a minute, with room: the
 * minute's budgets are the tighter ones (the hour's are 2.5 and 3.3 times them).
 */
function historyMultiplier() {
  const perCollar = HISTORY_DAYS * 1440 * 1.2;
  const collars = Math.max(1, Number(args.devices) || 1);
  return Math.max(Math.ceil(perCollar / 12_000), Math.ceil((collars * perCollar) / 30_000));
}

const dataDir = path.resolve(process.env.DATA_DIR || path.join(root, 'data-demo'));
const host = process.env.HOST || '127.0.0.1';
const port = await freePort(host, Number(process.env.PORT || 3000));
const creds = demoCredentials(dataDir);
const mqttPort = args.mqtt ? await freePort(host, 0) : null;
const url = `http://localhost:${port}`;

// The server runs in this process, as `npm start` does; it reads its settings from here, then
// from .env for what is not set here. The demo's own data stays its own: a .env written for a
// real deployment must not point the demo at that deployment's database or Redis (set empty,
// they win over the file).
Object.assign(process.env, {
  PORT: String(port),
  HOST: host,
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  REDIS_URL: '',
  // Only an empty database takes these: the first start creates the admin with them.
  ADMIN_EMAIL: creds.admin.email,
  ADMIN_PASSWORD: creds.admin.password,
  LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
  // Unless a scenario brings its own past, each new dog's last five weeks are uploaded first
  // (below): the server takes and keeps readings that old here, and the budgets, made for a
  // live collar and a week's backlog, are widened to let 50,400 readings a collar in at once
  // (unscaled, a collar's minute takes 12,000 and an account's 30,000;
  // services/ingest-budget.ts).
  ...(withHistory
    ? {
        READINGS_MAX_AGE_DAYS: String(HISTORY_DAYS),
        READINGS_RETENTION_DAYS: String(
          Math.max(HISTORY_DAYS, Number(process.env.READINGS_RETENTION_DAYS) || 0),
        ),
        RATE_LIMIT_MULTIPLIER: process.env.RATE_LIMIT_MULTIPLIER || String(historyMultiplier()),
      }
    : {}),
  // Every simulated collar connects from this machine: no cap per address.
  ...(mqttPort ? { MQTT_PORT: String(mqttPort), MQTT_MAX_CONNECTIONS_PER_ADDRESS: '0' } : {}),
});
await import(pathToFileURL(path.join(root, 'apps/server/dist/server.js')).href);
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) break;
  } catch {
    // not listening yet
  }
  if (i === 100) throw new Error('The server did not start within 10 s');
  await new Promise((r) => setTimeout(r, 100));
}

const line = '─'.repeat(72);
console.log(`
${line}
  PawGuard demo: open ${url}
  Owner (pets wearing simulated collars)  ${creds.owner.email}  /  ${creds.owner.password}
  Admin                                   ${creds.admin.email}  /  ${creds.admin.password}
  Data: ${dataDir}  (delete it to start afresh; the credentials are in ${path.basename(creds.file)})${
    mqttPort ? `\n  Collars publish over MQTT to mqtt://localhost:${mqttPort} (MQTT_PORT)` : ''
  }
  Ctrl-C stops the simulator and the server.
${line}
`);

const sim = fork(
  path.join(root, 'tools/collar-sim/src/cli.ts'),
  [
    '--url',
    `http://127.0.0.1:${port}`,
    '--devices',
    args.devices,
    '--interval',
    args.interval,
    ...(args.scenario !== undefined
      ? ['--scenario', args.scenario]
      : args.mild
        ? []
        : ['--heatwave']),
    ...(mqttPort ? ['--mqtt-url', `mqtt://127.0.0.1:${mqttPort}`] : []),
    // Five weeks of each new dog's ordinary life first, so activity, goals, insights and the
    // health dashboard have days to show (a scenario brings the past days it needs itself).
    ...(withHistory ? ['--history-days', String(HISTORY_DAYS)] : []),
    '--admin-email',
    creds.admin.email,
    '--owner-email',
    creds.owner.email,
    '--state',
    path.join(dataDir, 'collar-sim.json'),
  ],
  {
    cwd: root,
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
    // Passwords go in the environment: a command line is readable by every account (ps).
    env: {
      ...process.env,
      ADMIN_PASSWORD: creds.admin.password,
      SIM_OWNER_PASSWORD: creds.owner.password,
    },
  },
);

let stopping = false;
const simExited = new Promise((resolve) => sim.once('exit', resolve));
sim.once('exit', (code) => {
  if (stopping) return;
  // The simulator ended by itself (it could not set up): take the server down too.
  console.error(`The simulator stopped (exit code ${code}); stopping the server.`);
  process.kill(process.pid, 'SIGTERM');
});

// The server's own handler (close-with-grace) shuts it down on the same signals; the
// simulator, asked first, stops posting at once and exits after its readings in flight.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    // Ctrl-C reaches the simulator too, which may be gone already: then there is no one to ask.
    if (sim.connected) sim.send('stop', () => {});
    const kill = setTimeout(() => sim.kill('SIGKILL'), 8000);
    kill.unref();
    void simExited.then(() => clearTimeout(kill));
  });
}
process.once('exit', () => console.log('PawGuard demo stopped.'));
