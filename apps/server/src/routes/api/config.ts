import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicConfigResponseSchema } from '@pawguard/shared';

/** Settings the web app shows (the Support page's contacts); nothing secret. */
export const configRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/config',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['config'],
        summary: "Public settings: the Support page's e-mail and phone",
        response: { 200: publicConfigResponseSchema },
      },
    },
    async () => ({
      support_email: app.config.supportEmail,
      support_phone: app.config.supportPhone,
      support_phone_tel: telHref(app.config.supportPhone),
    }),
  );
};

/** '(800) 555-0142' → '+18005550142'; a number without a country code is taken as North American. */
export function telHref(phone: string): string {
  const digits = phone.replace(/[^\d]/g, '');
  if (phone.trim().startsWith('+')) return `+${digits}`;
  return digits.length === 10 ? `+1${digits}` : digits;
}
