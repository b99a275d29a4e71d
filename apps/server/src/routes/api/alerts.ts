import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  acknowledgeLinkInputSchema,
  alertParamsSchema,
  alertResponseSchema,
  alertsQuerySchema,
  alertsResponseSchema,
  errorSchema,
  idParamSchema,
  noBodySchema,
} from '@pawguard/shared';
import { currentUser } from '../../plugins/auth.js';
import { ForbiddenError, NotFoundError } from '../../services/errors.js';

/** Alerts: a device's (its owner or an admin), and the caller's across their devices. */
export const alertRoutes: FastifyPluginAsyncZod = async (app) => {
  const { alerts, devices, repos, clock } = app.container;
  const e = errorSchema;

  app.get(
    '/devices/:id/alerts',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['alerts'],
        summary: 'A device’s alerts, newest first (resolved=true|false filters)',
        params: idParamSchema,
        querystring: alertsQuerySchema,
        response: { 200: alertsResponseSchema, 400: e, 401: e, 404: e },
      },
    },
    async (request) => {
      // Another user's device answers 404, as if it did not exist.
      await devices.get(currentUser(request), request.params.id);
      return repos.alerts.list({ deviceId: request.params.id, ...request.query });
    },
  );

  app.post(
    '/devices/:id/alerts/:alertId/resolve',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['alerts'],
        summary:
          'Resolve an alert of your own collar or one on a pet shared with you (an already resolved one answers as it is; an admin reading another owner’s collar: 403)',
        params: alertParamsSchema,
        body: noBodySchema,
        response: { 200: alertResponseSchema, 400: e, 401: e, 403: e, 404: e },
      },
    },
    async (request) => {
      const user = currentUser(request);
      // An admin sees every collar's alerts, but only its owner and their pack resolve them
      // (DESIGN §5, docs/pack.md).
      if ((await devices.seen(user, request.params.id)).as === 'admin')
        throw new ForbiddenError('Only the collar’s owner can resolve its alerts');
      const alert = await alerts.resolveByOwner(request.params.id, request.params.alertId);
      if (!alert) throw new NotFoundError('Alert not found');
      return { alert };
    },
  );

  app.post(
    '/devices/:id/alerts/:alertId/acknowledge',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['alerts'],
        summary:
          'Acknowledge an open heat alert of your own collar or one on a pet shared with you: it stays open and watched, its notifications are marked read, no new alert or mail while it stays hot, and an escalation notifies and clears the acknowledgement (already acknowledged: answers as it is; another type: 400; resolved: 409; an admin reading another owner’s collar: 403)',
        params: alertParamsSchema,
        body: noBodySchema,
        response: { 200: alertResponseSchema, 400: e, 401: e, 403: e, 404: e, 409: e },
      },
    },
    async (request) => {
      const user = currentUser(request);
      if ((await devices.seen(user, request.params.id)).as === 'admin')
        throw new ForbiddenError('Only the collar’s owner can acknowledge its alerts');
      const alert = await alerts.acknowledgeByOwner(
        request.params.id,
        request.params.alertId,
        user.id,
      );
      if (!alert) throw new NotFoundError('Alert not found');
      return { alert };
    },
  );

  app.get(
    '/alerts',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['alerts'],
        summary: 'The caller’s alerts across their devices (an admin’s: every device’s)',
        querystring: alertsQuerySchema,
        response: { 200: alertsResponseSchema, 400: e, 401: e },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return repos.alerts.list({
        ...(user.role === 'admin' ? {} : { userId: user.id, now: clock.now().toISOString() }),
        ...request.query,
      });
    },
  );

  app.post(
    '/alerts/acknowledge-link',
    {
      // The token is the credential: a tap in an alert mail or on a push, with no sign-in.
      config: {
        auth: 'public',
        rateLimit: { max: Math.ceil(30 * app.config.rateLimitMultiplier), timeWindow: 60_000 },
      },
      schema: {
        tags: ['alerts'],
        summary:
          'Acknowledge the heat alert a signed link names (from an alert mail or a push), for the person it was made for (an invalid or expired link, or an alert no longer theirs: 404; resolved: 409)',
        body: acknowledgeLinkInputSchema,
        response: { 200: alertResponseSchema, 400: e, 404: e, 409: e, 429: e },
      },
    },
    async (request) => {
      const alert = await alerts.acknowledgeByLink(request.body.token);
      if (!alert)
        throw new NotFoundError(
          'This acknowledge link is not valid or has expired. Open PawGuard to acknowledge the alert.',
        );
      return { alert };
    },
  );
};
