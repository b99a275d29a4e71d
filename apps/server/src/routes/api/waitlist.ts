import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorSchema,
  waitlistEntriesResponseSchema,
  waitlistInputSchema,
  waitlistJoinResponseSchema,
  waitlistPageQuerySchema,
} from '@pawguard/shared';
import { currentUser } from '../../plugins/auth.js';

/** POST /api/waitlist (public). */
export const waitlistRoutes: FastifyPluginAsyncZod = async (app) => {
  const { waitlist } = app.container;
  app.post(
    '/',
    {
      config: {
        auth: 'public',
        rateLimit: { max: Math.ceil(10 * app.config.rateLimitMultiplier), timeWindow: 60_000 },
      },
      schema: {
        tags: ['waitlist'],
        summary: 'Join the waitlist',
        body: waitlistInputSchema,
        response: {
          201: waitlistJoinResponseSchema,
          400: errorSchema,
          409: errorSchema,
          429: errorSchema,
        },
      },
    },
    async (request, reply) => {
      await waitlist.join(request.body);
      return reply.code(201).send({
        success: true as const,
        message: "Thanks for joining! We'll let you know as soon as PawGuard is ready for you.",
      });
    },
  );
};

/** GET /api/admin/waitlist and its CSV export (admin). */
export const adminWaitlistRoutes: FastifyPluginAsyncZod = async (app) => {
  const { waitlist } = app.container;
  const errors = { 401: errorSchema, 403: errorSchema };
  app.get(
    '/',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin', 'waitlist'],
        summary: 'The waitlist, newest first, in pages of at most 100',
        querystring: waitlistPageQuerySchema,
        response: { 200: waitlistEntriesResponseSchema, 400: errorSchema, ...errors },
      },
    },
    async (request) => waitlist.page(request.query.limit, request.query.offset),
  );
  app.get(
    '/export.csv',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin', 'waitlist'],
        summary:
          'The waitlist as CSV (cells that could run as spreadsheet formulas are neutralised)',
        response: { 200: z.string(), ...errors },
      },
    },
    async (request, reply) => {
      request.log.info(
        { event: 'admin.waitlist_export', actor: currentUser(request).id, outcome: 'success' },
        'waitlist exported',
      );
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="pawguard-waitlist.csv"')
        .send(await waitlist.csv());
    },
  );
};
