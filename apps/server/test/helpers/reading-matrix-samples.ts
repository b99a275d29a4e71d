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
  /** A collar of the principal's with a heat alert open, and its notification. */
  const hotCollar = async (p: Principal) => {
    const c = await collar(p);
    const res = await ctx.t().app.inject({
      method: 'POST',
      url: `/api/devices/${c.device_id}/vitals`,
      headers: { authorization: `Device ${c.device_key}` },
      payload: { temperature: 45, humidity: 40 },
    });
    if (res.statusCode !== 201) throw new Error(res.body);
    const { db } = ctx.t().app.container;
    const alert = await db
      .selectFrom('alerts')
      .select('id')
      .where('device_uuid', '=', c.id)
      .executeTakeFirstOrThrow();
    const n = await db
      .selectFrom('notifications')
      .select('id')
      .where('alert_id', '=', alert.id)
      .executeTakeFirstOrThrow();
    return { device: c.id, alert: alert.id, notification: n.id };
  };
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
    'GET /api/devices/:id/risk/backtest': async (p) => ({
      url: `/api/devices/${(await collar(p)).id}/risk/backtest?days=7`,
    }),
    'GET /api/devices/:id/history': async (p) => ({
      url: `/api/devices/${(await collar(p)).id}/history?range=1h`,
    }),
    'GET /api/devices/:id/alerts': async (p) => ({
      url: `/api/devices/${(await collar(p)).id}/alerts?resolved=false`,
    }),
    'POST /api/devices/:id/alerts/:alertId/resolve': async (p) => {
      const { device, alert } = await hotCollar(p);
      return { method: 'POST', url: `/api/devices/${device}/alerts/${alert}/resolve` };
    },
    'POST /api/devices/:id/alerts/:alertId/acknowledge': async (p) => {
      const { device, alert } = await hotCollar(p);
      return { method: 'POST', url: `/api/devices/${device}/alerts/${alert}/acknowledge` };
    },
    // The link's token is the credential: any caller, signed in or not, with a valid one.
    'POST /api/alerts/acknowledge-link': async (p) => {
      const { alert } = await hotCollar(p);
      const owner = ctx.who(p) ?? ctx.user();
      const { ackLinks, clock } = ctx.t().app.container;
      const token = await ackLinks.token(
        { alertId: alert, userId: owner.id, level: 'CRITICAL' },
        clock.now(),
      );
      return { method: 'POST', url: '/api/alerts/acknowledge-link', payload: { token } };
    },
    'GET /api/alerts': async () => ({ url: '/api/alerts' }),
    'GET /api/notifications': async () => ({ url: '/api/notifications?limit=5' }),
    'GET /api/notifications/unread-count': async () => ({ url: '/api/notifications/unread-count' }),
    'PUT /api/notifications/mark-all-read': async () => ({
      method: 'PUT',
      url: '/api/notifications/mark-all-read',
    }),
    'PUT /api/notifications/:id/read': async (p) => {
      const { notification } = await hotCollar(p);
      return { method: 'PUT', url: `/api/notifications/${notification}/read` };
    },
    'POST /api/notifications/test-email': async () => ({
      method: 'POST',
      url: '/api/notifications/test-email',
      payload: { petName: 'Test Pet', temperature: 90 },
    }),
    'POST /api/stream/ticket': async () => ({ method: 'POST', url: '/api/stream/ticket' }),
    // Without a ticket: the ticket, not the token, is this route's credential.
    'GET /api/stream': async () => ({ url: '/api/stream' }),
  };
}
