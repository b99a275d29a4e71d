import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorSchema,
  failedMailsResponseSchema,
  idParamSchema,
  noBodySchema,
  retryMailResponseSchema,
} from '@pawguard/shared';
import { audited } from './audit.js';

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

  app.post(
    '/:id/retry',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary:
          'Put a given-up mail back in the queue: sent again at once, to the same recipient with the same Message-ID, with a new day of retries',
        params: idParamSchema,
        body: noBodySchema,
        response: { 200: retryMailResponseSchema, 400: e, 401: e, 403: e, 404: e },
      },
    },
    async (request) =>
      audited(request, 'admin.mail_retry', request.params.id, () =>
        undeliveredMail.retry(request.params.id),
      ),
  );
};
