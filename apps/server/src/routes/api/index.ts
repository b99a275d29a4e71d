import type { FastifyPluginAsync } from 'fastify';
import { registerApiCompression } from '../../plugins/compression.js';
import { healthRoutes } from './health.js';
import { configRoutes } from './config.js';
import { authRoutes } from './auth.js';
import { dogRoutes } from './dogs.js';
import { notificationRoutes } from './notifications.js';
import { deviceRoutes } from './devices.js';
import { vitalsRoutes } from './vitals.js';
import { alertRoutes } from './alerts.js';
import { streamRoutes } from './stream.js';
import { adminDeviceRoutes } from './admin-devices.js';
import { adminMailRoutes } from './admin-mail.js';
import { deviceRegistrationRoutes } from './device-registration.js';
import { adminWaitlistRoutes, waitlistRoutes } from './waitlist.js';
import { activityRoutes } from './activity.js';
import { pushRoutes } from './push.js';

/** Every /api route, by URL prefix. A new feature adds its line here. */
export const apiRoutes: FastifyPluginAsync = async (app) => {
  await registerApiCompression(app);
  await app.register(configRoutes);
  await app.register(healthRoutes);
  await app.register(authRoutes, { prefix: '/auth' });
  await app.register(dogRoutes, { prefix: '/dogs' });
  await app.register(notificationRoutes, { prefix: '/notifications' });
  await app.register(deviceRoutes, { prefix: '/devices' });
  await app.register(vitalsRoutes, { prefix: '/devices' });
  await app.register(alertRoutes);
  await app.register(streamRoutes, { prefix: '/stream' });
  await app.register(adminDeviceRoutes, { prefix: '/admin/devices' });
  await app.register(deviceRegistrationRoutes, { prefix: '/device-registration' });
  await app.register(waitlistRoutes, { prefix: '/waitlist' });
  await app.register(adminWaitlistRoutes, { prefix: '/admin/waitlist' });
  await app.register(adminMailRoutes, { prefix: '/admin/mail' });
  await app.register(activityRoutes);
  await app.register(pushRoutes, { prefix: '/push' });
};
