import fs from 'node:fs';
import fsPromises from 'node:fs/promises';
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import path from 'node:path';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { APP_VERSION } from '../../src/version.js';
import { createTestApp, usePostgres, type TestApp } from '../helpers/app.js';
import { until } from '../helpers/sse.js';
import { testRedisUrl } from '../helpers/redis.js';
import { ReadinessProbe, WRITE_FAILURE_DEGRADED_MS } from '../../src/services/health-probe.js';

/** Whether this machine lets the tests mount a small tmpfs (root, with the capability). */
function canMountTmpfs(): boolean {
  if (process.getuid?.() !== 0) return false;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-mount-check-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'ignore' });
    execFileSync('umount', [dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/health', () => {
  it('answers without a token: ok, the version and which database is in use', async () => {
    const res = await t.app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      version: APP_VERSION,
      database: usePostgres ? 'postgres' : 'sqlite',
    });
  });

  it('answers 503 degraded when the database does not respond', async () => {
    const broken = await createTestApp();
    await broken.app.container.db.destroy();
    try {
      const res = await broken.app.inject({ url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'degraded' });
    } finally {
      await broken.close();
    }
  });

  it('answers 503 degraded for a while after a write failed for lack of disk, and ok after', async () => {
    const full = await createTestApp();
    try {
      expect((await full.app.inject({ url: '/api/health' })).statusCode).toBe(200);
      // The error each database gives for a full disk, from the write a request makes: the
      // database itself still answers, so only the failed write shows it.
      const diskFull = usePostgres
        ? Object.assign(new Error('could not extend file: No space left on device'), {
            code: '53100',
          })
        : Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      const spy = vi.spyOn(full.app.container.repos.users, 'insert').mockRejectedValue(diskFull);
      try {
        const write = await full.app.inject({
          method: 'POST',
          url: '/api/auth/register',
          payload: { email: 'disk-full@example.com', password: 'Kennel-Walk-2026', name: 'Disk' },
        });
        expect(write.statusCode).toBe(503);
      } finally {
        spy.mockRestore();
      }
      full.clock.advance(1_001);
      const res = await full.app.inject({ url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'degraded' });
      const ready = await full.app.inject({ url: '/api/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().checks.database).toBe('failed');
      // No write has failed since: ok again once the window has passed.
      full.clock.advance(WRITE_FAILURE_DEGRADED_MS);
      expect((await full.app.inject({ url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await full.close();
    }
  });

  it('is not degraded by a write refused for another reason than the storage', async () => {
    const s = await createTestApp();
    try {
      s.app.container.writeFailures.note(Object.assign(new Error('duplicate'), { code: '23505' }));
      s.app.container.writeFailures.note(Object.assign(new Error('busy'), { code: 'SQLITE_BUSY' }));
      expect((await s.app.inject({ url: '/api/health' })).statusCode).toBe(200);
      s.app.container.writeFailures.note(
        Object.assign(new Error('could not write block'), { code: '58030' }),
      );
      s.clock.advance(1_001);
      expect((await s.app.inject({ url: '/api/health' })).statusCode).toBe(503);
    } finally {
      await s.close();
    }
  });

  it.skipIf(usePostgres)(
    'answers 503 degraded while writes fail: the write probe in DATA_DIR gets ENOSPC',
    async () => {
      const full = await createTestApp();
      try {
        expect((await full.app.inject({ url: '/api/health' })).statusCode).toBe(200);
        full.clock.advance(1_001);
        const spy = vi
          .spyOn(fsPromises, 'writeFile')
          .mockRejectedValue(
            Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }),
          );
        try {
          const res = await full.app.inject({ url: '/api/health' });
          expect(res.statusCode).toBe(503);
          // The spec's shape, as when healthy.
          expect(res.json()).toEqual({
            status: 'degraded',
            version: APP_VERSION,
            database: 'sqlite',
          });
        } finally {
          spy.mockRestore();
        }
        full.clock.advance(1_001);
        expect((await full.app.inject({ url: '/api/health' })).statusCode).toBe(200);
        // The probe leaves nothing behind in DATA_DIR.
        expect(fs.readdirSync(full.dataDir).filter((f) => f.startsWith('.write-probe'))).toEqual(
          [],
        );
      } finally {
        await full.close();
      }
    },
  );

  it.skipIf(usePostgres || !canMountTmpfs())(
    'answers 503 degraded on a disk that is really full, and ok again once there is room',
    async () => {
      const mount = fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-full-disk-'));
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mount]);
      const dataDir = path.join(mount, 'data');
      fs.mkdirSync(dataDir);
      let full: TestApp | undefined;
      try {
        full = await createTestApp({ dataDir });
        expect((await full.app.inject({ url: '/api/health' })).statusCode).toBe(200);
        // Every free block taken by another file.
        const filler = path.join(mount, 'filler');
        const fd = fs.openSync(filler, 'w');
        try {
          for (;;) fs.writeSync(fd, Buffer.alloc(64 * 1024));
        } catch (err) {
          expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
        } finally {
          fs.closeSync(fd);
        }
        full.clock.advance(1_001);
        const res = await full.app.inject({ url: '/api/health' });
        expect(res.statusCode).toBe(503);
        expect(res.json()).toMatchObject({ status: 'degraded' });
        fs.rmSync(filler);
        full.clock.advance(1_001);
        expect((await full.app.inject({ url: '/api/health' })).statusCode).toBe(200);
      } finally {
        await full?.close();
        execFileSync('umount', [mount]);
        fs.rmSync(mount, { recursive: true, force: true });
      }
    },
  );

  it.runIf(usePostgres)(
    'answers 503 degraded while PostgreSQL takes no writes (read-only), and ok once it does',
    async () => {
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL! });
      await admin.connect();
      const role = `ro_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
      await admin.query(`create role ${role} login superuser`);
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.username = role;
      url.password = '';
      let ro: TestApp | undefined;
      /** Ends the pool's connections and waits until its new ones start read-only or not. */
      const reconnect = async (readOnly: 'on' | 'off') => {
        await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where usename = $1',
          [role],
        );
        const setting = () =>
          sql<{ transaction_read_only: string }>`show transaction_read_only`
            .execute(ro!.app.container.db)
            .then(
              (r) => r.rows[0]?.transaction_read_only,
              () => 'ended',
            );
        // Every connection the pool hands out answers the new setting a few times running.
        let running = 0;
        await expect
          .poll(async () => ((await setting()) === readOnly ? ++running : (running = 0)), {
            timeout: 10_000,
            interval: 20,
          })
          .toBeGreaterThanOrEqual(5);
        ro!.clock.advance(1_001);
      };
      try {
        ro = await createTestApp({ databaseUrl: url.toString() });
        expect((await ro.app.inject({ url: '/api/health' })).statusCode).toBe(200);
        await admin.query(`alter role ${role} set default_transaction_read_only = on`);
        await reconnect('on');
        const res = await ro.app.inject({ url: '/api/health' });
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual({
          status: 'degraded',
          version: APP_VERSION,
          database: 'postgres',
        });
        // A write meanwhile is refused as an outage (503, try again later), never a 500.
        const write = await ro.app.inject({
          method: 'POST',
          url: '/api/auth/register',
          payload: { email: `ro-${role}@example.com`, password: 'Kennel-Walk-2026', name: 'Ro' },
        });
        expect(write.statusCode).toBe(503);
        expect(write.headers['retry-after']).toBeDefined();
        expect(write.json()).toHaveProperty('error');
        await admin.query(`alter role ${role} reset default_transaction_read_only`);
        await reconnect('off');
        // The refused write keeps health degraded a while after it (WriteFailures).
        expect((await ro.app.inject({ url: '/api/health' })).statusCode).toBe(503);
        ro.clock.advance(WRITE_FAILURE_DEGRADED_MS);
        expect((await ro.app.inject({ url: '/api/health' })).statusCode).toBe(200);
      } finally {
        await ro?.close();
        await admin.query(`drop role if exists ${role}`);
        await admin.end();
      }
    },
  );

  it('costs one database round trip however often it is asked within a second', async () => {
    t.clock.advance(5_000);
    const ping = vi.spyOn(t.app.container.health, 'ping');
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => t.app.inject({ url: '/api/health' })),
    );
    expect(answers.every((r) => r.statusCode === 200)).toBe(true);
    for (let i = 0; i < 20; i++) await t.app.inject({ url: '/api/health' });
    expect(ping).toHaveBeenCalledTimes(1);
    t.clock.advance(1_001);
    await t.app.inject({ url: '/api/health' });
    expect(ping).toHaveBeenCalledTimes(2);
    ping.mockRestore();
  });
});

describe('GET /api/health/live', () => {
  it('answers 200 { status: ok } without a token, even while the database does not', async () => {
    const broken = await createTestApp();
    try {
      expect((await broken.app.inject({ url: '/api/health/live' })).json()).toEqual({
        status: 'ok',
      });
      await broken.app.container.db.destroy();
      const res = await broken.app.inject({ url: '/api/health/live' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
    } finally {
      await broken.close();
    }
  });
});

describe('GET /api/health/ready', () => {
  it('answers 200 ready, each check named, what is not configured said so', async () => {
    const res = await t.app.inject({ url: '/api/health/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', redis: 'not configured', mqtt: 'not configured', disk: 'ok' },
    });
  });

  it('answers 503 naming the database when it does not answer', async () => {
    const broken = await createTestApp();
    await broken.app.container.db.destroy();
    try {
      const res = await broken.app.inject({ url: '/api/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        status: 'not ready',
        checks: { database: 'failed', disk: 'ok' },
        error: expect.stringMatching(/^Not ready: database/),
      });
    } finally {
      await broken.close();
    }
  });

  it('answers 503 naming the disk when DATA_DIR has less free space than READY_MIN_FREE_MB', async () => {
    // More than any test machine's disk holds (a petabyte).
    const full = await createTestApp({ env: { READY_MIN_FREE_MB: String(1024 ** 3) } });
    try {
      const res = await full.app.inject({ url: '/api/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toMatchObject({
        status: 'not ready',
        checks: { database: 'ok', disk: 'failed' },
        error: expect.stringMatching(/disk \(less than 1073741824 MB free in DATA_DIR\)/),
      });
    } finally {
      await full.close();
    }
  });

  it('checks the disk DATA_DIR will be on when the folder does not exist yet (PostgreSQL)', async () => {
    const s = await createTestApp();
    try {
      fs.rmSync(s.dataDir, { recursive: true, force: true });
      const probe = new ReadinessProbe({
        db: s.app.container.db,
        dialect: s.app.container.dialect,
        dataDir: path.join(s.dataDir, 'not', 'yet'),
        minFreeBytes: 1,
        clock: s.clock,
        writeFailures: s.app.container.writeFailures,
      });
      expect((await probe.check()).checks.disk).toBe('ok');
    } finally {
      await s.close();
    }
  });

  it('checks the MQTT port when MQTT_PORT is set: ok while it listens, failed once it stops', async () => {
    const s = await createTestApp({ env: { MQTT_PORT: '0' } });
    try {
      const res = await s.app.inject({ url: '/api/health/ready' });
      expect(res.json().checks.mqtt).toBe('ok');
      await s.app.container.mqtt.close();
      s.clock.advance(1_001);
      const after = await s.app.inject({ url: '/api/health/ready' });
      expect(after.statusCode).toBe(503);
      expect(after.json()).toMatchObject({
        checks: { mqtt: 'failed' },
        error: 'Not ready: mqtt (not listening)',
      });
    } finally {
      await s.close();
    }
  });

  it('checks Redis when REDIS_URL is set', async () => {
    const url = await testRedisUrl('the readiness check of Redis');
    if (!url) return;
    const s = await createTestApp({ env: { REDIS_URL: url } });
    try {
      const res = await s.app.inject({ url: '/api/health/ready' });
      expect(res.statusCode).toBe(200);
      expect(res.json().checks.redis).toBe('ok');
      await s.app.container.bus.close();
      s.clock.advance(1_001);
      const after = await s.app.inject({ url: '/api/health/ready' });
      expect(after.statusCode).toBe(503);
      expect(after.json().checks.redis).toBe('failed');
    } finally {
      await s.close();
    }
  });
});

describe('a request that comes while the server shuts down', () => {
  it("is refused with 503, the API's { error }, a Retry-After and the security headers", async () => {
    const s = await createTestApp();
    let closed: Promise<void> | undefined;
    try {
      const { port } = new URL(await s.app.listen({ port: 0, host: '127.0.0.1' }));
      const socket = net.connect(Number(port), '127.0.0.1');
      let received = '';
      socket.on('data', (b: Buffer) => (received += b.toString()));
      await once(socket, 'connect');
      // A request under way keeps its connection open while the server closes…
      const body = JSON.stringify({ email: 'late@example.com' });
      socket.write(
        `POST /api/waitlist HTTP/1.1\r\nHost: pawguard.test\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
      );
      await sleep(50);
      closed = s.close();
      await sleep(50);
      // …and the next request on it comes after the close began.
      socket.write(`${body.slice(5)}GET /api/health HTTP/1.1\r\nHost: pawguard.test\r\n\r\n`);
      await until(() => received.includes('restarting'));
      const second = received.slice(received.lastIndexOf('HTTP/1.1 '));
      expect(second).toMatch(/^HTTP\/1.1 503 /);
      expect(second).toMatch(/^x-content-type-options: nosniff\r$/im);
      expect(second).toMatch(/^content-security-policy: /im);
      expect(second).toMatch(/^cache-control: no-store\r$/im);
      expect(second).toMatch(/^retry-after: 5\r$/im);
      expect(second).toMatch(/^connection: close\r$/im);
      expect(second).toContain(
        '{"error":"PawGuard is restarting. Please try again in a few seconds."}',
      );
      socket.destroy();
    } finally {
      await (closed ?? s.close());
    }
  });
});
