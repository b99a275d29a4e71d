import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('answers degraded, not an error, when the database does not respond', async () => {
    const broken = await createTestApp();
    await broken.app.container.db.destroy();
    try {
      const res = await broken.app.inject({ url: '/api/health' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'degraded' });
    } finally {
      await broken.close();
    }
  });
});
