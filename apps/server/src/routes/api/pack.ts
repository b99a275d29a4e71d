import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  dogResponseSchema,
  errorSchema,
  idParamSchema,
  packInvitationInputSchema,
  packInvitationParamsSchema,
  packInvitationPreviewResponseSchema,
  packInvitationResponseSchema,
  packMemberParamsSchema,
  packResponseSchema,
  packTokenInputSchema,
  successSchema,
} from '@pawguard/shared';
import { currentUser } from '../../plugins/auth.js';

/** A pet's pack (docs/pack.md): who shares it, invitations by e-mail, joining and leaving. */
export const packRoutes: FastifyPluginAsyncZod = async (app) => {
  const { pack } = app.container;
  const e = errorSchema;
  const perMinute = (n: number) => ({
    max: Math.ceil(n * app.config.rateLimitMultiplier),
    timeWindow: 60_000,
  });

  app.get(
    '/dogs/:id/pack',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['pack'],
        summary:
          'The pet’s owner and pack (co-owners and caregivers); its owner also sees the open invitations',
        params: idParamSchema,
        response: { 200: packResponseSchema, 400: e, 401: e, 404: e },
      },
    },
    async (request) => ({ pack: await pack.get(currentUser(request), request.params.id) }),
  );

  app.post(
    '/dogs/:id/pack/invitations',
    {
      // Each sends a mail to an address of the caller's choosing.
      config: { auth: 'user', rateLimit: perMinute(10) },
      schema: {
        tags: ['pack'],
        summary:
          'Invite someone by e-mail to the pet’s pack as co_owner or caregiver, optionally until a date (the owner only): a single-use link, valid 7 days, for an account with that address',
        params: idParamSchema,
        body: packInvitationInputSchema,
        response: {
          201: packInvitationResponseSchema,
          400: e,
          401: e,
          403: e,
          404: e,
          409: e,
          429: e,
        },
      },
    },
    async (request, reply) => {
      const invitation = await pack.invite(currentUser(request), request.params.id, request.body);
      return reply.code(201).send({ invitation });
    },
  );

  app.delete(
    '/dogs/:id/pack/invitations/:invitationId',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['pack'],
        summary: 'Withdraw an open invitation (the owner only)',
        params: packInvitationParamsSchema,
        response: { 200: successSchema, 400: e, 401: e, 403: e, 404: e },
      },
    },
    async (request) => {
      await pack.revoke(currentUser(request), request.params.id, request.params.invitationId);
      return { success: true as const };
    },
  );

  app.delete(
    '/dogs/:id/pack/members/:userId',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['pack'],
        summary:
          'Remove someone from the pet’s pack (the owner: anyone; a member: themselves, i.e. leave)',
        params: packMemberParamsSchema,
        response: { 200: successSchema, 400: e, 401: e, 403: e, 404: e },
      },
    },
    async (request) => {
      await pack.remove(currentUser(request), request.params.id, request.params.userId);
      return { success: true as const };
    },
  );

  app.post(
    '/pack/invitation',
    {
      // The token is the credential: the join page shows whose invitation it is before sign-in.
      config: { auth: 'public', rateLimit: perMinute(30) },
      schema: {
        tags: ['pack'],
        summary: 'What an invitation link offers: the pet, who invites, as what, until when',
        body: packTokenInputSchema,
        response: { 200: packInvitationPreviewResponseSchema, 400: e, 404: e, 429: e },
      },
    },
    async (request) => ({ invitation: await pack.preview(request.body.token) }),
  );

  app.post(
    '/pack/accept',
    {
      config: { auth: 'user', rateLimit: perMinute(30) },
      schema: {
        tags: ['pack'],
        summary:
          'Accept an invitation with the signed-in account (its address must be the invited one); the link works once',
        body: packTokenInputSchema,
        response: { 200: dogResponseSchema, 400: e, 401: e, 403: e, 404: e, 409: e, 429: e },
      },
    },
    async (request) => ({ dog: await pack.accept(currentUser(request), request.body.token) }),
  );
};
