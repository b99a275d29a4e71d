import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema, failedMailsResponseSchema } from '@pawguard/shared';

/** The Admin Portal's view of mail delivery: what the server gave up delivering, and why. */
export const adminMailRoutes: FastifyPluginAsyncZod = async (app) => {
  const { undeliveredMail } = app.container;
  const e = errorSchema;

  app.get(
    '/failed',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary:
          'Mail given up (its recipient refused for good by the mail server, or a day of retries ran out), the most recently given up first, at most 50, with the total; never a body',
        response: { 200: failedMailsResponseSchema, 401: e, 403: e },
      },
    },
    async () => undeliveredMail.list(),
  );
};
