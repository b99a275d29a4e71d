import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminDogsQuerySchema,
  adminDogsResponseSchema,
  dogInputSchema,
  dogResponseSchema,
  dogsResponseSchema,
  errorSchema,
  escalationInputSchema,
  escalationResponseSchema,
  idParamSchema,
  pageQuerySchema,
  successSchema,
} from '@pawguard/shared';
import { currentUser } from '../../plugins/auth.js';

export const dogRoutes: FastifyPluginAsyncZod = async (app) => {
  const { dogs } = app.container;
  const errors = { 400: errorSchema, 401: errorSchema, 404: errorSchema };

  app.get(
    '/',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['dogs'],
        summary: 'My pets, oldest first, in pages of at most 100',
        querystring: pageQuerySchema,
        response: { 200: dogsResponseSchema, 400: errorSchema, 401: errorSchema },
      },
    },
    async (request) => dogs.list(currentUser(request).id, request.query),
  );

  app.get(
    '/all',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['dogs', 'admin'],
        summary: "Every pet (or one owner's, with user_id), newest first, in pages of at most 100",
        querystring: adminDogsQuerySchema,
        response: {
          200: adminDogsResponseSchema,
          400: errorSchema,
          401: errorSchema,
          403: errorSchema,
        },
      },
    },
    async (request) => {
      const { user_id, ...page } = request.query;
      return dogs.listAll(page, user_id);
    },
  );

  app.post(
    '/',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['dogs'],
        body: dogInputSchema,
        response: { 201: dogResponseSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ dog: await dogs.create(currentUser(request).id, request.body) }),
  );

  app.put(
    '/:id',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['dogs'],
        params: idParamSchema,
        body: dogInputSchema,
        response: { 200: dogResponseSchema, ...errors },
      },
    },
    async (request) => ({
      dog: await dogs.update(currentUser(request).id, request.params.id, request.body),
    }),
  );

  app.delete(
    '/:id',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['dogs'],
        params: idParamSchema,
        response: { 200: successSchema, ...errors },
      },
    },
    async (request) => {
      await dogs.delete(currentUser(request).id, request.params.id);
      return { success: true as const };
    },
  );

  app.get(
    '/:id/escalation',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['dogs'],
        summary:
          'How long the pet’s DANGER and CRITICAL heat alerts may go unacknowledged before they are sent again, “not yet acknowledged” (minutes; defaults 15 and 5)',
        params: idParamSchema,
        response: { 200: escalationResponseSchema, ...errors },
      },
    },
    async (request) => ({
      escalation: await dogs.escalation(currentUser(request).id, request.params.id),
    }),
  );

  app.put(
    '/:id/escalation',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['dogs'],
        params: idParamSchema,
        body: escalationInputSchema,
        response: { 200: escalationResponseSchema, ...errors },
      },
    },
    async (request) => ({
      escalation: await dogs.saveEscalation(
        currentUser(request).id,
        request.params.id,
        request.body,
      ),
    }),
  );
};
