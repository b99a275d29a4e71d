import type { FastifyPluginAsync } from 'fastify';
import { healthRoutes } from './health.js';
import { authRoutes } from './auth.js';
import { dogRoutes } from './dogs.js';
import { notificationRoutes } from './notifications.js';

/** Every /api route, by URL prefix. A new feature adds its line here. */
export const apiRoutes: FastifyPluginAsync = async (app) => {
  await app.register(healthRoutes);
  await app.register(authRoutes, { prefix: '/auth' });
  await app.register(dogRoutes, { prefix: '/dogs' });
  await app.register(notificationRoutes, { prefix: '/notifications' });
};
