import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorSchema,
  noBodySchema,
  pushPublicKeyResponseSchema,
  pushSettingsInputSchema,
  pushSettingsResponseSchema,
  pushSubscriptionInputSchema,
  pushSubscriptionResponseSchema,
  pushSubscriptionsResponseSchema,
  pushTestResponseSchema,
  pushUnsubscribeInputSchema,
  successSchema,
} from '@pawguard/shared';
import { currentUser } from '../../plugins/auth.js';

/** Web Push (docs/push.md): the server's key, the caller's browsers and which alerts push. */
export const pushRoutes: FastifyPluginAsyncZod = async (app) => {
  const { push, alertPush, testPushLimit, clock } = app.container;
  const e = errorSchema;

  app.get(
    '/public-key',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['push'],
        summary:
          'The server’s VAPID public key (base64url): the applicationServerKey a browser subscribes with',
        response: { 200: pushPublicKeyResponseSchema },
      },
    },
    async () => ({ public_key: push.publicKey }),
  );

  app.get(
    '/subscriptions',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['push'],
        summary: 'The caller’s browsers that take pushes, newest first (never their keys)',
        response: { 200: pushSubscriptionsResponseSchema, 401: e },
      },
    },
    async (request) => ({ subscriptions: await push.list(currentUser(request).id) }),
  );

  app.post(
    '/subscriptions',
    {
      // Each looks the endpoint's host up.
      config: {
        auth: 'user',
        rateLimit: { max: Math.ceil(20 * app.config.rateLimitMultiplier), timeWindow: 60_000 },
      },
      schema: {
        tags: ['push'],
        summary:
          'Push to this browser: its PushSubscription JSON. The endpoint must be https on a public address (PUSH-1); at most 5 browsers a person, the oldest making way',
        body: pushSubscriptionInputSchema,
        response: { 201: pushSubscriptionResponseSchema, 400: e, 401: e, 429: e },
      },
    },
    async (request, reply) => {
      const subscription = await push.subscribe(currentUser(request).id, request.body);
      return reply.code(201).send({ subscription });
    },
  );

  app.delete(
    '/subscriptions',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['push'],
        summary:
          'Stop pushing to this browser (by its endpoint); an endpoint that is not the caller’s changes nothing',
        body: pushUnsubscribeInputSchema,
        response: { 200: successSchema, 400: e, 401: e },
      },
    },
    async (request) => {
      await push.unsubscribe(currentUser(request).id, request.body.endpoint);
      return { success: true as const };
    },
  );

  app.get(
    '/settings',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['push'],
        summary: 'Which alerts push to the caller (defaults: WARNING and above, no collar news)',
        response: { 200: pushSettingsResponseSchema, 401: e },
      },
    },
    async (request) => ({ settings: await push.settings(currentUser(request).id) }),
  );

  app.put(
    '/settings',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['push'],
        body: pushSettingsInputSchema,
        response: { 200: pushSettingsResponseSchema, 400: e, 401: e },
      },
    },
    async (request) => ({
      settings: await push.saveSettings(currentUser(request).id, request.body),
    }),
  );

  app.post(
    '/test',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['push'],
        summary: 'Send a test push to each of the caller’s browsers now',
        body: noBodySchema,
        response: { 200: pushTestResponseSchema, 400: e, 401: e, 429: e },
      },
    },
    async (request) => {
      const user = currentUser(request);
      // It calls push services: a few a person, however often the button is pressed.
      testPushLimit.take(user.id, clock.now().getTime());
      return alertPush.sendTest(user);
    },
  );
};
