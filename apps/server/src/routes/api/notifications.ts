import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorSchema,
  idParamSchema,
  noBodySchema,
  notificationResponseSchema,
  notificationsQuerySchema,
  notificationsResponseSchema,
  preferencesInputSchema,
  preferencesResponseSchema,
  successSchema,
  testEmailInputSchema,
  testEmailResponseSchema,
  unreadCountResponseSchema,
} from '@pawguard/shared';
import { currentUser } from '../../plugins/auth.js';
import { NotFoundError } from '../../services/errors.js';

export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { preferences, alertMail, testEmailLimit, clock } = app.container;
  const notifications = app.container.repos.notifications;
  const e = errorSchema;

  app.get(
    '/preferences',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['notifications'],
        response: { 200: preferencesResponseSchema, 401: errorSchema },
      },
    },
    async (request) => ({ preferences: await preferences.get(currentUser(request).id) }),
  );

  app.put(
    '/preferences',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['notifications'],
        body: preferencesInputSchema,
        response: { 200: preferencesResponseSchema, 400: errorSchema, 401: errorSchema },
      },
    },
    async (request) => ({
      preferences: await preferences.put(currentUser(request).id, request.body),
    }),
  );

  // The notification centre: the caller's own notifications, newest first.
  app.get(
    '',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['notifications'],
        summary: 'The caller’s notifications, newest first (limit ≤ 100, default 20)',
        querystring: notificationsQuerySchema,
        response: { 200: notificationsResponseSchema, 400: e, 401: e },
      },
    },
    async (request) => ({
      notifications: await notifications.list(currentUser(request).id, request.query.limit),
    }),
  );

  app.get(
    '/unread-count',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['notifications'],
        response: { 200: unreadCountResponseSchema, 401: e },
      },
    },
    async (request) => ({ count: await notifications.unreadCount(currentUser(request).id) }),
  );

  app.put(
    '/mark-all-read',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['notifications'],
        body: noBodySchema,
        response: { 200: successSchema, 400: e, 401: e },
      },
    },
    async (request) => {
      await notifications.markAllRead(currentUser(request).id, clock.now().toISOString());
      return { success: true as const };
    },
  );

  app.put(
    '/:id/read',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['notifications'],
        params: idParamSchema,
        body: noBodySchema,
        response: { 200: notificationResponseSchema, 400: e, 401: e, 404: e },
      },
    },
    async (request) => {
      const notification = await notifications.markRead(
        currentUser(request).id,
        request.params.id,
        clock.now().toISOString(),
      );
      // Another person's notification answers as one that does not exist.
      if (!notification) throw new NotFoundError('Notification not found');
      return { notification };
    },
  );

  app.post(
    '/test-email',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['notifications'],
        summary: 'Send a sample alert e-mail to the caller now (10 s limit)',
        body: testEmailInputSchema,
        response: { 200: testEmailResponseSchema, 400: e, 401: e, 429: e },
      },
    },
    async (request) => {
      const user = currentUser(request);
      // It sends real mail: a few a user, however often the button is pressed.
      testEmailLimit.take(user.id, Date.now());
      return alertMail.sendTest(user, request.body);
    },
  );
};
