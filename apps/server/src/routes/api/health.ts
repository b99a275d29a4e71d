import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponseSchema } from '@pawguard/shared';
import { APP_VERSION } from '../../version.js';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      config: { auth: 'public', rateLimit: false },
      schema: {
        tags: ['health'],
        summary: 'Service health',
        response: { 200: healthResponseSchema },
      },
    },
    async () => {
      let status: 'ok' | 'degraded' = 'ok';
      try {
        await sql`select 1`.execute(app.container.db);
      } catch {
        status = 'degraded';
      }
      return { status, version: APP_VERSION, database: app.container.dialect };
    },
  );
};
