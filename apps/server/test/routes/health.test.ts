import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { APP_VERSION } from '../../src/version.js';
import { createTestApp, usePostgres, type TestApp } from '../helpers/app.js';

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
