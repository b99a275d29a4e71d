import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { autoAssignInputSchema, deviceResponseSchema, errorSchema } from '@pawguard/shared';
import { currentUser } from '../../plugins/auth.js';

export const deviceRegistrationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { devices } = app.container;
  const e = errorSchema;

  app.post(
    '/auto-assign',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['devices'],
        summary: 'Reserve a free collar for a pet and mail its set-up instructions',
        body: autoAssignInputSchema,
        response: { 200: deviceResponseSchema, 400: e, 401: e, 404: e, 409: e, 429: e },
      },
    },
    async (request) => {
      const user = currentUser(request);
      try {
        const device = await devices.autoAssign(user, request.body);
        request.log.info(
          {
            event: 'device.auto_assign',
            actor: user.id,
            target: device.device_id,
            outcome: 'success',
          },
          'collar reserved',
        );
        return { device };
      } catch (err) {
        request.log.info(
          {
            event: 'device.auto_assign',
            actor: user.id,
            outcome: 'failure',
            reason: (err as Error).message,
          },
          'auto-assign refused',
        );
        throw err;
      }
    },
  );
};
