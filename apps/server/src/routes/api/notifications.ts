import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema, preferencesInputSchema, preferencesResponseSchema } from '@pawguard/shared';
import { currentUser } from '../../plugins/auth.js';

export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { preferences } = app.container;

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
};
