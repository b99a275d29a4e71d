import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  healthResponseSchema,
  livenessResponseSchema,
  readinessResponseSchema,
} from '@pawguard/shared';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../plugins/error-handler.js';
import { APP_VERSION } from '../../version.js';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { health, readiness, dialect } = app.container;
  app.get(
    '/health',
    {
      config: { auth: 'public', rateLimit: false },
      schema: {
        tags: ['health'],
        summary:
          'Service health: 200 ok, or 503 degraded when the database does not answer or writes do not land',
        description:
          'Degraded while the database does not answer, or does not take writes: on SQLite a full disk, a read-only mount or an I/O error in DATA_DIR (a small file is written and removed there); on PostgreSQL a read-only server. On both, for 30 s after a write failed because the storage did (out of disk or memory, an I/O error, read-only). One answer stands for a second.',
        response: { 200: healthResponseSchema, 503: healthResponseSchema },
      },
    },
    async (_request, reply) => {
      const ok = await health.healthy();
      return reply
        .code(ok ? 200 : 503)
        .send({ status: ok ? 'ok' : 'degraded', version: APP_VERSION, database: dialect });
    },
  );

  // Polled every few seconds by orchestrators and load balancers: never rate-limited, and
  // quiet in the log (an answer other than 200 is logged all the same, at warn).
  app.get(
    '/health/live',
    {
      config: { auth: 'public', rateLimit: false },
      logLevel: 'warn',
      schema: {
        tags: ['health'],
        summary: 'Liveness: 200 while the process answers (restart it when it does not)',
        description:
          'Touches nothing outside the process: a database or Redis outage does not make it fail, so an orchestrator does not restart instances for an outage a restart cannot mend.',
        response: { 200: livenessResponseSchema },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/health/ready',
    {
      config: { auth: 'public', rateLimit: false },
      logLevel: 'warn',
      schema: {
        tags: ['health'],
        summary: 'Readiness: 200 when this instance can take traffic, 503 naming what failed',
        description:
          'Checks that the database answers and takes writes, that Redis answers (when REDIS_URL is set), that the collars’ MQTT port listens (when MQTT_PORT is set) and that DATA_DIR has at least READY_MIN_FREE_MB free. A check not configured reads `not configured`. One answer stands for a second.',
        response: { 200: readinessResponseSchema, 503: readinessResponseSchema },
      },
    },
    async (_request, reply) => {
      const r = await readiness.check();
      // A balancer or client asking again is told when, as every other 503 of the API says.
      if (!r.ready) reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      return reply.code(r.ready ? 200 : 503).send({
        status: r.ready ? 'ready' : 'not ready',
        checks: r.checks,
        ...(r.ready ? {} : { error: `Not ready: ${r.failures.join('; ')}` }),
      });
    },
  );
};
