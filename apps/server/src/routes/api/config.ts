import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicConfigResponseSchema, telHref } from '@pawguard/shared';

/** Settings the web app shows (the Support page's contacts); nothing secret. */
export const configRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/config',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['config'],
        summary:
          "Public settings: the Support page's e-mail and phone, and the collars' MQTT port (null when off)",
        response: { 200: publicConfigResponseSchema },
      },
    },
    async () => ({
      support_email: app.config.supportEmail,
      support_phone: app.config.supportPhone,
      support_phone_tel: telHref(app.config.supportPhone),
      // The port it listens on (MQTT_PORT=0 picks a free one), null when MQTT is off.
      mqtt_port: app.container.mqtt.port,
    }),
  );
};
