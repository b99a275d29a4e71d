import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * What a person starting the server sees when it cannot start: one line that says what is
 * wrong and what to do, exit status 1, no stack trace, no password.
 */
const serverEntry = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../src/server.ts',
);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-start-up-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** A port on 127.0.0.1 held by `server` until it is closed. */
async function heldPort(): Promise<{ port: number; server: net.Server }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, server };
}

// tsx by its file, so that the server may be started from any directory (one with a .env).
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** Runs the server with `env` until it exits: its exit status and what it wrote to stderr. */
function runServer(
  env: Record<string, string>,
  cwd?: string,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', tsx, serverEntry], {
    ...(cwd ? { cwd } : {}),
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      MQTT_PORT: '',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: 'admin@start-up.test',
      ADMIN_PASSWORD: 'start-up-admin-password',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    }),
  );
}

/** Starts the server on a PostgreSQL at 127.0.0.1:`port`: it exits 1 naming it and `reason`. */
async function expectDatabaseRefused(port: number, reason: string): Promise<void> {
  const r = await runServer({
    PORT: '0',
    // secretlint-disable-next-line -- a made-up password, to check that it is never printed
    DATABASE_URL: `postgres://pawguard:secret-password@127.0.0.1:${port}/pawguard`,
    JWT_SECRET: 'x'.repeat(64),
  });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(
    `PostgreSQL did not answer at 127.0.0.1:${port}/pawguard (DATABASE_URL): ${reason}`,
  );
  expect(r.stderr).not.toContain('secret-password');
  expect(r.stderr).not.toMatch(/^\s+at /m);
}

describe('a server that cannot start says why in one line', () => {
  it('when PostgreSQL does not answer at DATABASE_URL: where it looked, never the password', async () => {
    // A port nothing answers on: held, then closed.
    const { port, server } = await heldPort();
    await new Promise((resolve) => server.close(resolve));
    await expectDatabaseRefused(port, 'connect ECONNREFUSED');
  });

  it('when a server at DATABASE_URL takes the connection and never answers: within seconds', async () => {
    // A listener that accepts and stays silent, as a host behind a broken network path may.
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    try {
      const started = Date.now();
      await expectDatabaseRefused(port, '');
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
    }
  });

  it('when its port is taken by another program', async () => {
    const { port, server } = await heldPort();
    try {
      const r = await runServer({ PORT: String(port) });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `Port ${port} on 127.0.0.1 is already in use by another program: stop it, or set PORT to a free port.`,
      );
      expect(r.stderr).not.toMatch(/^\s+at /m);
    } finally {
      server.close();
    }
  });

  it('when the port named for collars over MQTT is taken', async () => {
    const { port, server } = await heldPort();
    try {
      const r = await runServer({ PORT: '0', MQTT_PORT: String(port) });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `Port ${port} on 127.0.0.1 is already in use by another program: stop it, or set MQTT_PORT to a free port.`,
      );
    } finally {
      server.close();
    }
  });

  it('when the metrics port is taken', async () => {
    const { port, server } = await heldPort();
    try {
      const r = await runServer({ PORT: '0', METRICS_PORT: String(port) });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `Port ${port} on 127.0.0.1 is already in use by another program: stop it, or set METRICS_PORT to a free port.`,
      );
    } finally {
      server.close();
    }
  });
});

describe('a DATA_DIR another account could write to', () => {
  it('a jwt-secret file others may write stops the start, naming it (CFG-2)', async () => {
    const own = fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-start-up-secret-'));
    try {
      const file = path.join(own, 'jwt-secret');
      fs.writeFileSync(file, `${'s'.repeat(64)}\n`);
      fs.chmodSync(file, 0o666);
      fs.chmodSync(own, 0o777);
      const r = await runServer({ PORT: '0', DATA_DIR: own, JWT_SECRET: '' });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${file} can be written by another account (mode 0666`);
      expect(r.stderr).not.toContain('s'.repeat(64));
      expect(r.stderr).not.toMatch(/^\s+at /m);
      // The folder itself was made private before the secret was looked at.
      expect(fs.statSync(own).mode & 0o777).toBe(0o700);
    } finally {
      fs.rmSync(own, { recursive: true, force: true });
    }
  });
});

describe('a .env file in the directory the server starts from', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-dotenv-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is read at start: a bad setting in it is named like one from the environment', async () => {
    fs.writeFileSync(path.join(dir, '.env'), '# test\nMETRICS_TOKEN=short\n');
    const r = await runServer({ PORT: '0' }, dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('METRICS_TOKEN: must be at least 16 printable characters');
  });

  it('gives way to the environment: a variable set there keeps its value', async () => {
    const file = await heldPort();
    const env = await heldPort();
    try {
      fs.writeFileSync(path.join(dir, '.env'), `PORT=${file.port}\nMQTT_PORT=${file.port}\n`);
      // PORT from the environment; MQTT_PORT set there too, empty (off), also wins.
      const r = await runServer({ PORT: String(env.port), MQTT_PORT: '' }, dir);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`Port ${env.port} on 127.0.0.1 is already in use`);
      expect(r.stderr).not.toContain(String(file.port));
    } finally {
      file.server.close();
      env.server.close();
    }
  });
});
