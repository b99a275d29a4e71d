// The e2e entry point (`npm run test:e2e`): finds an installed Chromium, builds what is
// stale, starts the real server on a free port with a throw-away DATA_DIR, runs the
// Playwright specs against it and stops it again. Extra arguments go to `playwright test`
// (e.g. `node e2e/run.mjs --grep "404"`).
import { spawn, spawnSync } from 'node:child_process';
import {
  accessSync,
  constants,
  createWriteStream,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';
import { buildIfStale } from '../scripts/build-if-stale.mjs';
import { countDeclaredTests } from '../scripts/summary.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const artifacts = path.join(here, '.artifacts');
const require = createRequire(import.meta.url);

// Known to the specs through the environment (see support/env.ts).
const ADMIN_EMAIL = 'admin@pawguard.test';
const ADMIN_PASSWORD = 'e2e-admin-password';

const log = (message) => console.log(`[e2e] ${message}`);

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** CHROMIUM_PATH, else `chromium` or `chromium-browser` on PATH. Never downloads one. */
function findChromium() {
  const fromEnv = process.env.CHROMIUM_PATH?.trim();
  if (fromEnv) {
    if (isExecutable(fromEnv)) return fromEnv;
    // Set but wrong is a mistake to fix, not a machine without a browser: fail, do not skip.
    throw new Error(`CHROMIUM_PATH=${fromEnv} is not an executable file.`);
  }
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const name of ['chromium', 'chromium-browser']) {
    for (const dir of dirs) {
      const candidate = path.join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return null;
}

function loudSkip() {
  const bar = '!'.repeat(78);
  console.warn(
    [
      '',
      bar,
      "!!  E2E SKIPPED: no Chromium found — set CHROMIUM_PATH or install Debian's chromium",
      '!!  (apt-get install chromium). The browser journeys did NOT run.',
      bar,
      '',
    ].join('\n'),
  );
}

/**
 * How many browser tests there are, without a browser: Playwright lists them (the settings
 * it insists on are placeholders; nothing is started). Failing that, the declared tests.
 */
function countBrowserTests() {
  const cli = require.resolve('@playwright/test/cli');
  const listed = spawnSync(
    process.execPath,
    [cli, 'test', '--list', '--config', path.join(here, 'playwright.config.ts')],
    {
      cwd: here,
      encoding: 'utf8',
      env: {
        ...process.env,
        CHROMIUM_PATH: process.execPath,
        PAWGUARD_BASE_URL: 'http://127.0.0.1:9',
        PAWGUARD_ADMIN_EMAIL: ADMIN_EMAIL,
        PAWGUARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
      },
    },
  );
  const total = /Total: (\d+) tests?/.exec(listed.stdout ?? '');
  if (total) return Number(total[1]);
  const specs = path.join(here, 'specs');
  return countDeclaredTests(
    readdirSync(specs)
      .filter((f) => f.endsWith('.spec.ts'))
      .map((f) => readFileSync(path.join(specs, f), 'utf8')),
  );
}

/** For `npm test`'s summary: every browser test counts as skipped, not as nothing. */
function writeSkipSummary() {
  const file = process.env.PAWGUARD_E2E_SUMMARY;
  if (!file) return;
  const stats = { expected: 0, unexpected: 0, flaky: 0, skipped: countBrowserTests() };
  writeFileSync(file, JSON.stringify({ skippedSuite: true, stats }));
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * A real SMTP server on loopback for the app's mail: each message it accepts is written to
 * `mailDir` as an .eml file, where the specs read what an owner would receive.
 */
async function startMailSink(mailDir) {
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (c) => chunks.push(c));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address).join(',');
        const file = path.join(mailDir, `${String(++count).padStart(5, '0')}.eml`);
        writeFileSync(file, `X-Envelope-To: ${to}\r\n${Buffer.concat(chunks).toString('utf8')}`);
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `smtp://127.0.0.1:${server.server.address().port}`, server };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function startServer({ port, dataDir, logFile, smtpUrl }) {
  const out = createWriteStream(logFile);
  const child = spawn(process.execPath, [path.join(root, 'apps/server/dist/server.js')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      RATE_LIMIT_MULTIPLIER: '50',
      // Mail goes to the loopback SMTP sink only; nothing connects anywhere else.
      SMTP_URL: smtpUrl,
      // The browser here reaches no real push service: the push journey subscribes with a
      // loopback https endpoint, which only this lets the server take.
      PUSH_ALLOW_PRIVATE_ENDPOINTS: '1',
      MQTT_PORT: '',
      REDIS_URL: '',
      DATABASE_URL: '',
      JWT_SECRET: '',
      PUBLIC_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  const server = { child, exited: null, stopping: false };
  server.exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      if (!server.stopping)
        console.error(
          `[e2e] THE SERVER EXITED UNEXPECTEDLY (${signal ?? `exit code ${code}`}); see ${path.relative(root, logFile)}`,
        );
      resolve({ code, signal });
    }),
  );
  return server;
}

async function waitForHealth(baseURL, exited, timeoutMs = 30_000) {
  let done = false;
  let exitInfo = null;
  void exited.then((info) => {
    done = true;
    exitInfo = info;
  });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (done)
      throw new Error(`the server exited before it was ready (${JSON.stringify(exitInfo)})`);
    try {
      const response = await fetch(`${baseURL}/api/health`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  throw new Error(`GET /api/health did not answer 200 within ${timeoutMs / 1000} s`);
}

async function stopServer(server) {
  const { child, exited } = server;
  server.stopping = true;
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

function runPlaywright(env, args) {
  const cli = require.resolve('@playwright/test/cli');
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [cli, 'test', '--config', path.join(here, 'playwright.config.ts'), ...args],
      {
        cwd: here,
        env,
        stdio: 'inherit',
      },
    );
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

function printServerLog(logFile) {
  let text = '';
  try {
    text = readFileSync(logFile, 'utf8').trim();
  } catch {
    return;
  }
  if (!text) return;
  const lines = text.split('\n');
  console.error(
    `[e2e] server log (last ${Math.min(lines.length, 40)} of ${lines.length} lines, full log: ${path.relative(root, logFile)}):`,
  );
  console.error(lines.slice(-40).join('\n'));
}

async function main() {
  const started = Date.now();
  let chromium;
  try {
    chromium = findChromium();
  } catch (err) {
    console.error(`[e2e] ${err.message}`);
    return 1;
  }
  if (!chromium) {
    loudSkip();
    writeSkipSummary();
    return 0;
  }
  log(`Chromium: ${chromium}`);

  try {
    await buildIfStale({ root, log });
  } catch (err) {
    console.error(`[e2e] ${err.message}`);
    return 1;
  }

  mkdirSync(artifacts, { recursive: true });
  const logFile = path.join(artifacts, 'server.log');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pawguard-e2e-'));
  const mailDir = path.join(dataDir, 'received-mail');
  mkdirSync(mailDir);
  const mail = await startMailSink(mailDir);
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const server = startServer({ port, dataDir, logFile, smtpUrl: mail.url });
  let exitCode = 1;
  try {
    await waitForHealth(baseURL, server.exited);
    log(`Server ready at ${baseURL} (DATA_DIR ${dataDir})`);
    exitCode = await runPlaywright(
      {
        ...process.env,
        CHROMIUM_PATH: chromium,
        PAWGUARD_BASE_URL: baseURL,
        PAWGUARD_ADMIN_EMAIL: ADMIN_EMAIL,
        PAWGUARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
        PAWGUARD_MAIL_DIR: mailDir,
      },
      process.argv.slice(2),
    );
  } catch (err) {
    console.error(`[e2e] ${err instanceof Error ? err.message : String(err)}`);
    exitCode = 1;
  } finally {
    await stopServer(server);
    await new Promise((resolve) => mail.server.close(resolve));
    await rm(dataDir, { recursive: true, force: true });
  }
  if (exitCode !== 0) {
    printServerLog(logFile);
    log(
      `Failure screenshots and traces: ${path.relative(root, path.join(artifacts, 'test-results'))}/ ` +
        `(open a trace with: npx playwright show-trace <trace.zip>)`,
    );
  }
  log(`${exitCode === 0 ? 'Passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return exitCode;
}

process.exitCode = await main();
