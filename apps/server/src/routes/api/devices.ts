import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  assignDeviceInputSchema,
  createDeviceInputSchema,
  deviceIdParamSchema,
  deviceLookupResponseSchema,
  deviceResponseSchema,
  devicesResponseSchema,
  errorSchema,
  generatedDeviceIdResponseSchema,
  idParamSchema,
  macParamSchema,
  pageQuerySchema,
  qrCodeResponseSchema,
  registerDeviceInputSchema,
  selfRegisterInputSchema,
  selfRegisterResponseSchema,
  successSchema,
  updateDeviceInputSchema,
} from '@pawguard/shared';
import { currentUser } from '../../plugins/auth.js';
import { audited } from './audit.js';

export const deviceRoutes: FastifyPluginAsyncZod = async (app) => {
  const { devices } = app.container;
  const e = errorSchema;
  const userErrors = { 400: e, 401: e, 404: e };
  const adminErrors = { 400: e, 401: e, 403: e, 404: e };

  app.get(
    '/',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['devices'],
        summary: 'My devices, oldest first, in pages of at most 100',
        querystring: pageQuerySchema,
        response: { 200: devicesResponseSchema, 400: e, 401: e },
      },
    },
    async (request) => devices.listMine(currentUser(request).id, request.query),
  );

  app.get(
    '/all',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['devices', 'admin'],
        summary: 'Every device, newest first, in pages of at most 100',
        querystring: pageQuerySchema,
        response: { 200: devicesResponseSchema, 400: e, 401: e, 403: e },
      },
    },
    async (request) => devices.listAll(request.query),
  );

  app.get(
    '/generate-id',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['devices', 'admin'],
        summary: 'An unused Device ID: PET- and 4 random upper-case letters or digits',
        response: { 200: generatedDeviceIdResponseSchema, 401: e, 403: e, 409: e },
      },
    },
    async () => ({ device_id: await devices.generateId() }),
  );

  app.get(
    '/by-mac/:mac',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['devices', 'admin'],
        params: macParamSchema,
        response: { 200: deviceResponseSchema, ...adminErrors },
      },
    },
    async (request) => ({ device: await devices.byMac(request.params.mac) }),
  );

  app.get(
    '/by-device-id/:deviceId',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['devices'],
        summary: 'Whether a Device ID can be registered (rate-limited per user)',
        params: deviceIdParamSchema,
        response: { 200: deviceLookupResponseSchema, ...userErrors, 429: e },
      },
    },
    async (request) => {
      const actor = currentUser(request).id;
      const target = request.params.deviceId;
      // Device IDs can be enumerated: every look-up is logged.
      try {
        const result = await devices.lookup(currentUser(request), target);
        request.log.info(
          { event: 'device.lookup', actor, target, outcome: result.status },
          'device lookup',
        );
        return result;
      } catch (err) {
        request.log.info(
          {
            event: 'device.lookup',
            actor,
            target,
            outcome: 'failure',
            reason: (err as Error).message,
          },
          'device lookup',
        );
        throw err;
      }
    },
  );

  app.post(
    '/assign/:deviceId',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['devices'],
        summary: 'Claim an unassigned collar for one of your pets',
        params: deviceIdParamSchema,
        body: assignDeviceInputSchema,
        response: { 200: deviceResponseSchema, ...userErrors, 409: e },
      },
    },
    async (request) => {
      const actor = currentUser(request).id;
      const target = request.params.deviceId;
      try {
        const device = await devices.assign(currentUser(request), target, request.body);
        request.log.info(
          { event: 'device.assign', actor, target, outcome: 'success' },
          'device assigned',
        );
        return { device };
      } catch (err) {
        request.log.info(
          {
            event: 'device.assign',
            actor,
            target,
            outcome: 'failure',
            reason: (err as Error).message,
          },
          'device assign refused',
        );
        throw err;
      }
    },
  );

  app.post(
    '/',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['devices'],
        summary:
          'Record a collar whose Device ID is not known yet (stored unregistered until an admin pre-populates it)',
        body: createDeviceInputSchema,
        response: { 201: deviceResponseSchema, ...userErrors, 409: e, 429: e },
      },
    },
    async (request, reply) => {
      const device = await devices.createUnregistered(currentUser(request), request.body);
      request.log.info(
        {
          event: 'device.create_unregistered',
          actor: currentUser(request).id,
          target: device.device_id,
          outcome: 'success',
        },
        'unregistered device created',
      );
      return reply.code(201).send({ device });
    },
  );

  app.post(
    '/register',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['devices', 'admin'],
        summary: 'Assign a device to a user',
        body: registerDeviceInputSchema,
        response: { 200: deviceResponseSchema, ...adminErrors, 409: e },
      },
    },
    async (request) => {
      const { device_id, user_id } = request.body;
      const device = await audited(
        request,
        'admin.device_register',
        device_id,
        () => devices.registerToUser(request.body),
        () => ({
          user: user_id,
        }),
      );
      return { device };
    },
  );

  app.post(
    '/self-register',
    {
      config: { auth: 'device' },
      schema: {
        tags: ['devices', 'collar'],
        summary:
          'The collar reports its firmware version and MAC address (Authorization: Device <key>)',
        security: [{ device: [] }],
        body: selfRegisterInputSchema,
        response: { 200: selfRegisterResponseSchema, 400: e, 401: e, 409: e },
      },
    },
    async (request) => {
      const principal = request.device!;
      const device = await devices.selfRegister(principal.id, request.body);
      request.log.info(
        { event: 'device.self_register', actor: principal.deviceId, outcome: 'success' },
        'collar reported itself',
      );
      return { device };
    },
  );

  app.get(
    '/:id',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['devices'],
        params: idParamSchema,
        response: { 200: deviceResponseSchema, ...userErrors },
      },
    },
    async (request) => ({ device: await devices.get(currentUser(request), request.params.id) }),
  );

  app.put(
    '/:id',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['devices'],
        summary: 'Rename, change type, move to another of your pets; admins may also set status',
        description:
          'An owner moves the collar to another of their pets with `dog_id`, and takes it off its pet with `dog_id: null`; an omitted `dog_id`, `device_name` or `device_type` keeps the stored one (the body `{ device_name, device_type }` renames the collar and leaves it on its pet). Setting `status` is for admins (a user: 403). On a customer’s device an admin’s PUT applies `status` only: a `device_name`, `device_type` or `dog_id` other than the stored one answers 403.',
        params: idParamSchema,
        body: updateDeviceInputSchema,
        response: { 200: deviceResponseSchema, ...userErrors, 403: e },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const run = () => devices.update(user, request.params.id, request.body);
      const device =
        user.role === 'admin'
          ? await audited(request, 'admin.device_update', request.params.id, run, (d) => ({
              status: d.status,
            }))
          : await run();
      return { device };
    },
  );

  app.delete(
    '/:id',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['devices'],
        summary:
          "The owner's delete releases the collar; an admin's removes a device they do not hold",
        params: idParamSchema,
        response: { 200: successSchema, ...userErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const run = () => devices.remove(user, request.params.id);
      const outcome =
        user.role === 'admin'
          ? await audited(request, 'admin.device_delete', request.params.id, run, (r) => ({
              result: r,
            }))
          : await run();
      if (user.role !== 'admin') {
        request.log.info(
          {
            event: 'device.release',
            actor: user.id,
            target: request.params.id,
            outcome: 'success',
            result: outcome,
          },
          'device released',
        );
      }
      return { success: true as const };
    },
  );

  app.get(
    '/:id/qr-code',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['devices'],
        summary: 'A QR code (PNG data URL) of the Device ID',
        params: idParamSchema,
        response: { 200: qrCodeResponseSchema, ...userErrors },
      },
    },
    async (request) => ({ qr_code: await devices.qrCode(currentUser(request), request.params.id) }),
  );
};
