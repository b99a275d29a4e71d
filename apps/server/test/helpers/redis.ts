import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { redisAddress } from '../../src/services/redis-event-bus.js';

/**
 * The Redis for the tests that need one (TEST_REDIS_URL), or undefined when it is unset or
 * does not answer; then those tests skip, and one line says why (as the PostgreSQL runs do
 * without TEST_DATABASE_URL).
 */
export async function testRedisUrl(what: string): Promise<string | undefined> {
  const url = process.env.TEST_REDIS_URL;
  if (!url) {
    console.warn(`TEST_REDIS_URL is not set: ${what} skipped`);
    return undefined;
  }
  const probe = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2_000,
    retryStrategy: () => null,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
  });
  // ioredis rejects connect() with "Connection is closed"; the cause comes as an event.
  let cause: Error | undefined;
  probe.on('error', (err: Error) => (cause = err));
  try {
    await probe.connect();
    await probe.ping();
    return url;
  } catch (err) {
    console.warn(
      `TEST_REDIS_URL (${redisAddress(url)}) does not answer (${(cause ?? (err as Error)).message}): ${what} skipped`,
    );
    return undefined;
  } finally {
    probe.disconnect();
  }
}

/** A channel scope of this test worker's own, so parallel workers never see each other's events. */
export function workerScope(): string {
  return `t${process.env.VITEST_POOL_ID ?? '0'}_${randomUUID().replace(/-/g, '').slice(0, 8)}`;
}

/** The same Redis, another database number: its events go on a channel of their own. */
export function withDatabase(url: string, db: number): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}
