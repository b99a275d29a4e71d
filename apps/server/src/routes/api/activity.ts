import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  activityQuerySchema,
  activityResponseSchema,
  errorSchema,
  goalInputSchema,
  goalResponseSchema,
  idParamSchema,
  insightsResponseSchema,
  weeklyInsightsInputSchema,
  weeklyInsightsSchema,
} from '@pawguard/shared';
import { currentUser } from '../../plugins/auth.js';
import { chargeChartRead } from './chart-reads.js';

/**
 * A dog's activity, goal and insights (docs/activity.md, decision 0043), and the weekly
 * insights mail's setting. Registered at /api: the paths below are whole.
 */
export const activityRoutes: FastifyPluginAsyncZod = async (app) => {
  const { activity } = app.container;
  const e = errorSchema;
  const chartRead = chargeChartRead(app);

  app.get(
    '/dogs/:id/activity',
    {
      config: { auth: 'user' },
      preHandler: chartRead,
      schema: {
        tags: ['dogs'],
        summary: "A pet's activity per day in its owner's time zone (days 1–90, default 7)",
        description:
          "Per day, oldest first and ending today: active minutes at a level of SAFE (what counts toward the goal), of those vigorous, active minutes above SAFE (heat_minutes, never counted), rest and night sleep, minutes worn, the goal and whether it was met (a hot day on which it was not is a heat_day: it neither counts toward nor breaks the streak), and the walks. With the goal in force (the owner's, or the suggestion and its reasons), the streak, and today's heat advice. The pet's owner, or an admin; anyone else 404. A chart read: counted in the account's 200 at once, then 20 a second; past that, 429 with `Retry-After`.",
        params: idParamSchema,
        querystring: activityQuerySchema,
        response: { 200: activityResponseSchema, 400: e, 401: e, 404: e, 429: e },
      },
    },
    async (request) =>
      activity.activity(currentUser(request), request.params.id, request.query.days),
  );

  app.put(
    '/dogs/:id/goal',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['dogs'],
        summary: "Set a pet's daily activity goal (minutes), or null for the suggestion",
        description:
          "active_minutes: a whole number from 5 to 300, or null to go back to what PawGuard suggests from the pet's breed, age, weight and conditions. The pet's owner only: an admin is answered 403, anyone else 404.",
        params: idParamSchema,
        body: goalInputSchema,
        response: { 200: goalResponseSchema, 400: e, 401: e, 403: e, 404: e },
      },
    },
    async (request) =>
      activity.setGoal(currentUser(request), request.params.id, request.body.active_minutes),
  );

  app.get(
    '/dogs/:id/insights',
    {
      config: { auth: 'user' },
      preHandler: chartRead,
      schema: {
        tags: ['dogs'],
        summary: "A pet's week summed up: the last 7 whole days against the 4 weeks before",
        description:
          'Activity against its own 4-week baseline, resting heart rate, heat exposure and goal days met, each naming its numbers; and flags worth a vet’s look (activity down at least 30 % on each of the last 3 days, resting heart rate up at least 15 %), with the evidence and a note that it is not a diagnosis. The pet’s owner, or an admin; anyone else 404. A chart read: counted in the account’s 200 at once, then 20 a second; past that, 429 with `Retry-After`.',
        params: idParamSchema,
        response: { 200: insightsResponseSchema, 400: e, 401: e, 404: e, 429: e },
      },
    },
    async (request) => activity.insights(currentUser(request), request.params.id),
  );

  app.get(
    '/notifications/weekly-insights',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['notifications'],
        summary: 'Whether the caller gets the weekly insights mail (off unless turned on)',
        response: { 200: weeklyInsightsSchema, 401: e },
      },
    },
    async (request) => ({
      weekly_insights: await activity.weeklySetting(currentUser(request).id),
    }),
  );

  app.put(
    '/notifications/weekly-insights',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['notifications'],
        summary: 'Turn the weekly insights mail on or off',
        description:
          "On: a summary of each of the caller's pets' week, by mail on Monday at 08:00 in the account's time zone.",
        body: weeklyInsightsInputSchema,
        response: { 200: weeklyInsightsSchema, 400: e, 401: e },
      },
    },
    async (request) =>
      activity.setWeeklySetting(currentUser(request), request.body.weekly_insights),
  );
};
