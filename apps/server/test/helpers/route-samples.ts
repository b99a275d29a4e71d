import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { bearer, login, TEST_PASSWORD, type SeededUser, type TestApp } from './app.js';
import { insertUser, seedDog } from './api.js';
import { joinPack, packInvitation } from './pack.js';
import { deviceMatrixSamples } from './device-matrix-samples.js';
import { readingMatrixSamples } from './reading-matrix-samples.js';

export type Principal = 'anon' | 'user' | 'admin';

/**
 * A valid request for every /api route, as each principal may legitimately make it (on its
 * own objects). The authorization matrix uses them to show what the role decides; the write
 * route fuzz starts from them and spoils one field at a time. A route without a sample fails
 * the matrix test, so every route gets one.
 */
export function routeSamples(ctx: {
  t: () => TestApp;
  who: (p: Principal) => SeededUser | undefined;
  user: () => SeededUser;
  admin: () => SeededUser;
}): Record<string, (p: Principal) => Promise<InjectOptions>> {
  const { who } = ctx;
  const t = ctx.t;
  const user = ctx.user;
  const validDog = { name: 'Matrix Dog', breed: 'Poodle', age: 3, weight: 12 };
  const validPrefs = {
    email_notifications_enabled: true,
    temperature_threshold: 80,
    critical_temperature_threshold: 100,
    email_frequency: 'daily',
  };

  /** A mail the worker gave up, as it leaves one; answers its id. */
  const givenUpMail = async () => {
    const { repos, db } = t().app.container;
    const key = `matrix-${randomUUID()}`;
    const at = t().clock.now().toISOString();
    await repos.outbox.enqueue(
      { idempotencyKey: key, to: 'gone@example.com', subject: 'S', text: 'T' },
      at,
    );
    const row = await db
      .updateTable('outbox')
      .set({
        status: 'failed',
        attempts: 1,
        failed_at: at,
        failure_reason: '550 5.1.1 user unknown',
      })
      .where('idempotency_key', '=', key)
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  };

  return {
    ...deviceMatrixSamples(ctx),
    ...readingMatrixSamples(ctx),
    'POST /api/waitlist': async () => ({
      method: 'POST',
      url: '/api/waitlist',
      payload: {
        name: 'Matrix',
        email: `matrix-${randomUUID()}@example.com`,
        phone: '555 0100',
        petName: 'Rex',
        petBreed: 'Poodle',
      },
    }),
    'GET /api/admin/waitlist': async () => ({ url: '/api/admin/waitlist' }),
    'GET /api/admin/waitlist/export.csv': async () => ({ url: '/api/admin/waitlist/export.csv' }),
    'GET /api/admin/mail/failed': async () => ({ url: '/api/admin/mail/failed' }),
    'POST /api/admin/mail/:id/retry': async () => ({
      method: 'POST',
      url: `/api/admin/mail/${await givenUpMail()}/retry`,
    }),
    'GET /api/health': async () => ({ url: '/api/health' }),
    'GET /api/health/live': async () => ({ url: '/api/health/live' }),
    'GET /api/health/ready': async () => ({ url: '/api/health/ready' }),
    'GET /api/config': async () => ({ url: '/api/config' }),
    'POST /api/auth/register': async () => ({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        email: `matrix-${randomUUID()}@example.com`,
        password: 'matrix password',
        name: 'Matrix',
      },
    }),
    'POST /api/auth/login': async (p) => ({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: (who(p) ?? user()).email, password: TEST_PASSWORD },
    }),
    'GET /api/auth/confirm/:token': async () => ({ url: `/api/auth/confirm/${randomUUID()}` }),
    // A fresh session, so the shared principals stay signed in.
    'POST /api/auth/logout': async (p) => ({
      method: 'POST',
      url: '/api/auth/logout',
      ...(who(p) ? { headers: bearer(await login(t(), who(p)!.email, TEST_PASSWORD)) } : {}),
    }),
    'GET /api/auth/profile': async () => ({ url: '/api/auth/profile' }),
    'PUT /api/auth/profile/time-zone': async () => ({
      method: 'PUT',
      url: '/api/auth/profile/time-zone',
      payload: { time_zone: 'Europe/Paris' },
    }),
    'PUT /api/auth/profile/preferences': async () => ({
      method: 'PUT',
      url: '/api/auth/profile/preferences',
      payload: { temperature_unit: 'C', weight_unit: 'kg' },
    }),
    'GET /api/auth/users': async () => ({ url: '/api/auth/users' }),
    'PUT /api/auth/users/:id/role': async () => ({
      method: 'PUT',
      url: `/api/auth/users/${(await insertUser(t())).id}/role`,
      payload: { role: 'admin' },
    }),
    'DELETE /api/auth/users/:id': async () => ({
      method: 'DELETE',
      url: `/api/auth/users/${(await insertUser(t())).id}`,
    }),
    'GET /api/dogs': async () => ({ url: '/api/dogs' }),
    'POST /api/dogs': async () => ({ method: 'POST', url: '/api/dogs', payload: validDog }),
    'GET /api/dogs/all': async () => ({ url: '/api/dogs/all' }),
    'PUT /api/dogs/:id': async (p) => ({
      method: 'PUT',
      url: `/api/dogs/${(await seedDog(t(), (who(p) ?? user()).id)).id}`,
      payload: validDog,
    }),
    'DELETE /api/dogs/:id': async (p) => ({
      method: 'DELETE',
      url: `/api/dogs/${(await seedDog(t(), (who(p) ?? user()).id)).id}`,
    }),
    'GET /api/notifications/preferences': async () => ({ url: '/api/notifications/preferences' }),
    'PUT /api/notifications/preferences': async () => ({
      method: 'PUT',
      url: '/api/notifications/preferences',
      payload: validPrefs,
    }),
    // A pet's activity, goal and insights (the admin's own pet for the admin row; another
    // owner's pet is 404, and an admin setting another owner's goal 403: activity.test.ts).
    'GET /api/dogs/:id/activity': async (p) => ({
      url: `/api/dogs/${(await seedDog(t(), (who(p) ?? user()).id)).id}/activity?days=7`,
    }),
    'PUT /api/dogs/:id/goal': async (p) => ({
      method: 'PUT',
      url: `/api/dogs/${(await seedDog(t(), (who(p) ?? user()).id)).id}/goal`,
      payload: { active_minutes: 45 },
    }),
    'GET /api/dogs/:id/insights': async (p) => ({
      url: `/api/dogs/${(await seedDog(t(), (who(p) ?? user()).id)).id}/insights`,
    }),
    'GET /api/notifications/weekly-insights': async () => ({
      url: '/api/notifications/weekly-insights',
    }),
    'PUT /api/notifications/weekly-insights': async () => ({
      method: 'PUT',
      url: '/api/notifications/weekly-insights',
      payload: { weekly_insights: true },
    }),
    'GET /api/dogs/:id/escalation': async (p) => ({
      url: `/api/dogs/${(await seedDog(t(), (who(p) ?? user()).id)).id}/escalation`,
    }),
    'PUT /api/dogs/:id/escalation': async (p) => ({
      method: 'PUT',
      url: `/api/dogs/${(await seedDog(t(), (who(p) ?? user()).id)).id}/escalation`,
      payload: { danger_minutes: 10, critical_minutes: 3 },
    }),
    // The pack (docs/pack.md): on the principal's own pet; accepting, another owner's invitation.
    'GET /api/dogs/:id/pack': async (p) => ({
      url: `/api/dogs/${(await seedDog(t(), (who(p) ?? user()).id)).id}/pack`,
    }),
    'POST /api/dogs/:id/pack/invitations': async (p) => ({
      method: 'POST',
      url: `/api/dogs/${(await seedDog(t(), (who(p) ?? user()).id)).id}/pack/invitations`,
      payload: { email: `${randomUUID()}@example.com`, role: 'caregiver' },
    }),
    'DELETE /api/dogs/:id/pack/invitations/:invitationId': async (p) => {
      const owner = (who(p) ?? user()).id;
      const dog = await seedDog(t(), owner);
      await packInvitation(t(), { dogId: dog.id, invitedBy: owner, email: 'x@example.com' });
      const [row] = await t().app.container.repos.pack.openInvitations(
        dog.id,
        t().clock.now().toISOString(),
      );
      return { method: 'DELETE', url: `/api/dogs/${dog.id}/pack/invitations/${row!.id}` };
    },
    'DELETE /api/dogs/:id/pack/members/:userId': async (p) => {
      const owner = (who(p) ?? user()).id;
      const dog = await seedDog(t(), owner);
      const member = await insertUser(t());
      await joinPack(t(), { dogId: dog.id, userId: member.id, role: 'caregiver' });
      return { method: 'DELETE', url: `/api/dogs/${dog.id}/pack/members/${member.id}` };
    },
    'POST /api/pack/invitation': async () => {
      const owner = await insertUser(t());
      const dog = await seedDog(t(), owner.id);
      const token = await packInvitation(t(), {
        dogId: dog.id,
        invitedBy: owner.id,
        email: 'invited@example.com',
      });
      return { method: 'POST', url: '/api/pack/invitation', payload: { token } };
    },
    'POST /api/pack/accept': async (p) => {
      const owner = await insertUser(t());
      const dog = await seedDog(t(), owner.id);
      const token = await packInvitation(t(), {
        dogId: dog.id,
        invitedBy: owner.id,
        email: (who(p) ?? user()).email,
      });
      return { method: 'POST', url: '/api/pack/accept', payload: { token } };
    },
    'GET /api/push/public-key': async () => ({ url: '/api/push/public-key' }),
    'GET /api/push/subscriptions': async () => ({ url: '/api/push/subscriptions' }),
    // A public address given as such: no look-up is needed to accept it.
    'POST /api/push/subscriptions': async () => ({
      method: 'POST',
      url: '/api/push/subscriptions',
      payload: samplePushSubscription(),
    }),
    'DELETE /api/push/subscriptions': async () => ({
      method: 'DELETE',
      url: '/api/push/subscriptions',
      payload: { endpoint: samplePushSubscription().endpoint },
    }),
    'GET /api/push/settings': async () => ({ url: '/api/push/settings' }),
    'PUT /api/push/settings': async () => ({
      method: 'PUT',
      url: '/api/push/settings',
      payload: { min_level: 'DANGER', offline: true, low_battery: false },
    }),
    'POST /api/push/test': async () => ({ method: 'POST', url: '/api/push/test' }),
    'GET /api/docs': async () => ({ url: '/api/docs' }),
    'GET /api/docs/json': async () => ({ url: '/api/docs/json' }),
    'GET /api/docs/yaml': async () => ({ url: '/api/docs/yaml' }),
    'GET /api/docs/static/*': async () => ({ url: '/api/docs/static/swagger-ui.css' }),
    'GET /api/docs/static/index.html': async () => ({ url: '/api/docs/static/index.html' }),
    'GET /api/docs/static/swagger-initializer.js': async () => ({
      url: '/api/docs/static/swagger-initializer.js',
    }),
  };
}

/** A browser's PushSubscription JSON on a public push service, given by address (no look-up). */
export function samplePushSubscription() {
  return {
    endpoint: `https://8.8.8.8/push/${randomUUID()}`,
    expirationTime: null,
    keys: {
      // A valid uncompressed P-256 point and a 16-byte secret, base64url.
      p256dh:
        'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
      auth: 'tBHItJI5svbpez7KI4CCXg',
    },
  };
}
