import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * AUTH-6: the address per-IP limits count is the socket's, unless the socket is a proxy that
 * TRUST_PROXY lists. Registrations are limited to 10 a minute per address.
 */
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const register = (app: TestApp, remoteAddress: string, forwardedFor: string, i: number) =>
  app.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    remoteAddress,
    headers: { 'x-forwarded-for': forwardedFor },
    payload: { email: `proxy-${i}-${Math.random()}@example.com`, password: 'short' },
  });

/** Eleven registrations from one socket address, each claiming another client behind it. */
async function elevenFrom(app: TestApp, remoteAddress: string) {
  const codes: number[] = [];
  for (let i = 0; i < 11; i++)
    codes.push((await register(app, remoteAddress, `203.0.113.${i}`, i)).statusCode);
  return codes;
}

describe('TRUST_PROXY', () => {
  it('unset: a spoofed X-Forwarded-For changes nothing, the socket address is limited', async () => {
    t = await createTestApp({ env: { RATE_LIMIT_MULTIPLIER: '1' } });
    const codes = await elevenFrom(t, '198.51.100.7');
    expect(codes.slice(0, 10).every((c) => c === 400)).toBe(true);
    expect(codes[10]).toBe(429);
  });

  it('set: an untrusted sender’s X-Forwarded-For is still ignored', async () => {
    t = await createTestApp({ env: { RATE_LIMIT_MULTIPLIER: '1', TRUST_PROXY: '10.0.0.0/8' } });
    expect((await elevenFrom(t, '198.51.100.7'))[10]).toBe(429);
  });

  it('set: behind the trusted proxy each client keeps its own budget', async () => {
    t = await createTestApp({ env: { RATE_LIMIT_MULTIPLIER: '1', TRUST_PROXY: '10.0.0.0/8' } });
    expect((await elevenFrom(t, '10.1.2.3')).every((c) => c === 400)).toBe(true);
    // The same client through the proxy is limited like any other address.
    for (let i = 0; i < 10; i++) await register(t, '10.1.2.3', '192.0.2.1', i);
    expect((await register(t, '10.1.2.3', '192.0.2.1', 99)).statusCode).toBe(429);
  });
});
