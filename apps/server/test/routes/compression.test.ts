import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCompressionOptions, registerApiCompression } from '../../src/plugins/compression.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

const big = { items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `Dog ${i}` })) };

describe('API compression', () => {
  const app = Fastify();
  beforeAll(async () => {
    await registerApiCompression(app);
    app.get('/big', async () => big);
    app.get('/small', async () => ({ ok: true }));
    // What the live stream will send: events that must reach the browser as written.
    app.get('/stream', (_request, reply) => {
      reply.header('content-type', 'text/event-stream');
      return reply.send(`data: ${JSON.stringify(big)}\n\n`);
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('compresses a large JSON answer with brotli or gzip, as the client accepts', async () => {
    for (const encoding of ['br', 'gzip']) {
      const res = await app.inject({ url: '/big', headers: { 'accept-encoding': encoding } });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.rawPayload.length).toBeLessThan(JSON.stringify(big).length / 3);
    }
  });

  it('leaves a small answer and a client that accepts nothing alone', async () => {
    const small = await app.inject({ url: '/small', headers: { 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    const plain = await app.inject({ url: '/big' });
    expect(plain.headers['content-encoding']).toBeUndefined();
  });

  it('never compresses the live stream (text/event-stream)', async () => {
    const res = await app.inject({ url: '/stream', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.startsWith('data: ')).toBe(true);
    expect(apiCompressionOptions.customTypes.test('text/event-stream')).toBe(false);
    expect(apiCompressionOptions.customTypes.test('application/json; charset=utf-8')).toBe(true);
  });
});

describe('compression in the app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('sends a small /api answer as it is, still never cached', async () => {
    const health = await t.app.inject({
      url: '/api/health',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.headers['cache-control']).toBe('no-store');
  });
});
