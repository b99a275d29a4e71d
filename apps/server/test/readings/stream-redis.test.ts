import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/env.js';
import { openDatabase } from '../../src/db/index.js';
import { EventBusUnavailableError } from '../../src/services/event-bus.js';
import { RedisEventBus } from '../../src/services/redis-event-bus.js';
import { createTestApp, seedUser, TEST_PASSWORD, usePostgres } from '../helpers/app.js';
import { ownedCollar } from '../helpers/devices.js';
import { postAsCollar } from '../helpers/readings.js';
import { listen, openStream, readingOf, ticketFor } from '../helpers/sse.js';
import { testRedisUrl, withDatabase } from '../helpers/redis.js';
import { expectReadingArrivesAt, withSecondInstance } from '../helpers/second-instance.js';

const redisUrl = await testRedisUrl('the live stream over Redis (REDIS_URL)');
const reading = (temperature: number) => ({ temperature, humidity: 40 });

describe.skipIf(usePostgres)('REDIS_URL at start', () => {
  it('refuses to start, naming REDIS_URL, when Redis does not answer, and leaves DATA_DIR free', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pawguard-redis-down-'));
    try {
      const config = loadConfig({
        DATA_DIR: dataDir,
        ADMIN_PASSWORD: TEST_PASSWORD,
        REDIS_URL: `redis://127.0.0.1:${port}`,
      });
      const failure = await buildApp({
        config,
        logStream: new PassThrough(),
        busStartTimeoutMs: 200,
      }).catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(EventBusUnavailableError);
      expect((failure as Error).message).toMatch(/^REDIS_URL: Redis at redis:\/\/127\.0\.0\.1:/);
      // The database it opened is closed again: the next start is not refused as a second owner.
      const db = await openDatabase({ dataDir });
      await db.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!redisUrl)('live events through Redis (REDIS_URL)', () => {
  it('are what an instance uses when REDIS_URL is set, on SQLite too, and its own streams get its events', async () => {
    // A database number of this worker's: the channel is apart from other workers' and servers'.
    const db = 1 + (Number(process.env.VITEST_POOL_ID ?? 0) % 15);
    const t = await createTestApp({ env: { REDIS_URL: withDatabase(redisUrl!, db) } });
    try {
      const bus = t.app.container.bus;
      expect(bus).toBeInstanceOf(RedisEventBus);
      expect((bus as RedisEventBus).channel).toBe(
        `pawguard_events${t.dbHandle.schema ? `_${t.dbHandle.schema}` : ''}:${db}`,
      );
      const admin = await seedUser(t, { role: 'admin' });
      const owner = await seedUser(t);
      const c = await ownedCollar(t, admin, owner);
      const s = await openStream(await listen(t), await ticketFor(t, owner.token));
      await postAsCollar(t, c.device_id, c.device_key, reading(28));
      const e = await s.next(readingOf(c.id));
      expect((e.data as { reading: { temperature: number } }).reading.temperature).toBe(28);
      s.close();
    } finally {
      await t.close();
    }
  });

  // Each SQLite instance owns its own data, so two of them never share owners or collars:
  // instances that share a stream share one PostgreSQL (the bus itself is tested on its own).
  it.runIf(usePostgres)(
    'carry a reading posted to one instance to a stream open on another',
    async () => {
      const t = await createTestApp({ env: { REDIS_URL: redisUrl! } });
      try {
        await withSecondInstance(t, async (second, base2) => {
          // Redis carries them, not LISTEN/NOTIFY, though both are on PostgreSQL.
          expect(t.app.container.bus).toBeInstanceOf(RedisEventBus);
          expect(second.container.bus).toBeInstanceOf(RedisEventBus);
          await expectReadingArrivesAt(t, base2);
          // A logout on one instance ends that session's stream on the other at once.
          const u = await seedUser(t);
          const s = await openStream(base2, await ticketFor(t, u.token));
          await t.app.inject({
            method: 'POST',
            url: '/api/auth/logout',
            headers: { authorization: `Bearer ${u.token}` },
          });
          await s.ended;
        });
      } finally {
        await t.close();
      }
    },
  );
});
