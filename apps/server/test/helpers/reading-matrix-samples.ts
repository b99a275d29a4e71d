import type { InjectOptions } from 'fastify';
import type { SeededUser, TestApp } from './app.js';
import { ownedCollar } from './devices.js';

type Principal = 'anon' | 'user' | 'admin';

/**
 * Sample requests for the readings and stream rows of security/authorization-matrix.json, on
 * a collar the principal holds (the user's, for anon). Spread into the matrix test's samples.
 */
export function readingMatrixSamples(ctx: {
  t: () => TestApp;
  who: (p: Principal) => SeededUser | undefined;
  user: () => SeededUser;
  admin: () => SeededUser;
}): Record<string, (p: Principal) => Promise<InjectOptions>> {
  const collar = (p: Principal) => ownedCollar(ctx.t(), ctx.admin(), ctx.who(p) ?? ctx.user());
  const reading = { temperature: 24.5, humidity: 40 };
  return {
    'POST /api/devices/:deviceId/vitals': async (p) => ({
      method: 'POST',
      url: `/api/devices/${(await collar(p)).device_id}/vitals`,
      payload: reading,
    }),
    'GET /api/devices/:id/vitals': async (p) => ({
      url: `/api/devices/${(await collar(p)).id}/vitals`,
    }),
    'GET /api/devices/:id/vitals/latest': async (p) => ({
      url: `/api/devices/${(await collar(p)).id}/vitals/latest`,
    }),
    'GET /api/devices/:id/readings': async (p) => ({
      url: `/api/devices/${(await collar(p)).id}/readings?latest=1`,
    }),
    'GET /api/devices/:id/history': async (p) => ({
      url: `/api/devices/${(await collar(p)).id}/history?range=1h`,
    }),
    'POST /api/stream/ticket': async () => ({ method: 'POST', url: '/api/stream/ticket' }),
    // Without a ticket: the ticket, not the token, is this route's credential.
    'GET /api/stream': async () => ({ url: '/api/stream' }),
  };
}
