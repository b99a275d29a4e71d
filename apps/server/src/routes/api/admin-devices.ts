import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  devicesResponseSchema,
  errorSchema,
  idParamSchema,
  noBodySchema,
  pageQuerySchema,
  prePopulateInputSchema,
  prePopulateResponseSchema,
  rotateKeyResponseSchema,
} from '@pawguard/shared';
import { audited } from './audit.js';

/** The Admin Portal's fleet calls: devices nobody holds, and pre-populating new ones. */
export const adminDeviceRoutes: FastifyPluginAsyncZod = async (app) => {
  const { devices } = app.container;
  const e = errorSchema;

  app.get(
    '/unassigned',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['devices', 'admin'],
        summary: 'Devices nobody holds, newest first, in pages of at most 100',
        querystring: pageQuerySchema,
        response: { 200: devicesResponseSchema, 400: e, 401: e, 403: e },
      },
    },
    async (request) => devices.listUnassigned(request.query),
  );

  app.post(
    '/pre-populate',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['devices', 'admin'],
        summary:
          'Add devices, all or nothing. The answer is the only place each device key (and its QR code) is ever shown.',
        body: prePopulateInputSchema,
        response: { 201: prePopulateResponseSchema, 400: e, 401: e, 403: e, 409: e },
      },
    },
    async (request, reply) => {
      const ids = request.body.devices.map((d) => d.device_id);
      const created = await audited(
        request,
        'admin.device_prepopulate',
        ids,
        () => devices.prePopulate(request.body),
        (r) => ({
          adopted: r.filter((d) => d.adopted).map((d) => d.device_id),
        }),
      );
      return reply.code(201).send({ devices: created });
    },
  );

  app.post(
    '/:id/rotate-key',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['devices', 'admin'],
        summary:
          'Issue a new device key; the old one is refused from now on. The answer is the only place the new key (and its QR code) is shown.',
        params: idParamSchema,
        body: noBodySchema,
        response: { 200: rotateKeyResponseSchema, 400: e, 401: e, 403: e, 404: e, 409: e },
      },
    },
    async (request) => {
      const device = await audited(
        request,
        'admin.device_rotate_key',
        request.params.id,
        () => devices.rotateKey(request.params.id),
        (d) => ({ device_id: d.device_id }),
      );
      return { device };
    },
  );
};
