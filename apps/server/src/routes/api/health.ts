import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponseSchema } from '@pawguard/shared';
import { APP_VERSION } from '../../version.js';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { health, dialect } = app.container;
  app.get(
    '/health',
    {
      config: { auth: 'public', rateLimit: false },
      schema: {
        tags: ['health'],
        summary: 'Service health: 200 ok, or 503 degraded when the database does not answer',
        response: { 200: healthResponseSchema, 503: healthResponseSchema },
      },
    },
    async (_request, reply) => {
      const ok = await health.databaseAnswers();
      return reply
        .code(ok ? 200 : 503)
        .send({ status: ok ? 'ok' : 'degraded', version: APP_VERSION, database: dialect });
    },
  );
};
