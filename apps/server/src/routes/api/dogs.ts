import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminDogsResponseSchema,
  dogInputSchema,
  dogResponseSchema,
  dogsResponseSchema,
  errorSchema,
  idParamSchema,
  successSchema,
} from '@pawguard/shared';
import { currentUser } from '../../plugins/auth.js';

export const dogRoutes: FastifyPluginAsyncZod = async (app) => {
  const { pets } = app.container;
  const errors = { 400: errorSchema, 401: errorSchema, 404: errorSchema };

  app.get(
    '/',
    {
      config: { auth: 'user' },
      schema: { tags: ['pets'], response: { 200: dogsResponseSchema, 401: errorSchema } },
    },
    async (request) => ({ dogs: await pets.list(currentUser(request).id) }),
  );

  app.get(
    '/all',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['pets', 'admin'],
        response: { 200: adminDogsResponseSchema, 401: errorSchema, 403: errorSchema },
      },
    },
    async () => ({ dogs: await pets.listAll() }),
  );

  app.post(
    '/',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['pets'],
        body: dogInputSchema,
        response: { 201: dogResponseSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ dog: await pets.create(currentUser(request).id, request.body) }),
  );

  app.put(
    '/:id',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['pets'],
        params: idParamSchema,
        body: dogInputSchema,
        response: { 200: dogResponseSchema, ...errors },
      },
    },
    async (request) => ({
      dog: await pets.update(currentUser(request).id, request.params.id, request.body),
    }),
  );

  app.delete(
    '/:id',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['pets'],
        params: idParamSchema,
        response: { 200: successSchema, ...errors },
      },
    },
    async (request) => {
      await pets.delete(currentUser(request).id, request.params.id);
      return { success: true as const };
    },
  );
};
