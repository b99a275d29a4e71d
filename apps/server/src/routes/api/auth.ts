import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  authResponseSchema,
  confirmParamSchema,
  errorSchema,
  idParamSchema,
  loginInputSchema,
  noBodySchema,
  pageQuerySchema,
  profilePreferencesInputSchema,
  profileResponseSchema,
  registerInputSchema,
  roleInputSchema,
  successSchema,
  timeZoneInputSchema,
  usersResponseSchema,
} from '@pawguard/shared';
import { currentSessionId, currentUser } from '../../plugins/auth.js';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { auth, users } = app.container;
  const perMinute = (n: number) => ({
    max: Math.ceil(n * app.config.rateLimitMultiplier),
    timeWindow: 60_000,
  });
  const errors = { 400: errorSchema, 401: errorSchema, 409: errorSchema, 429: errorSchema };

  app.post(
    '/register',
    {
      config: { auth: 'public', rateLimit: perMinute(10) },
      schema: {
        tags: ['auth'],
        description:
          'A password is 8–128 characters of any kind, and not one of the 10,000 most common passwords (compared as typed and in lower case): such a one answers 400 with one generic `error`.',
        body: registerInputSchema,
        response: { 201: authResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const result = await auth.register(request.body);
      request.log.info(
        { event: 'auth.register', actor: result.user.id, outcome: 'success' },
        'account created',
      );
      return reply.code(201).send(result);
    },
  );

  app.post(
    '/login',
    {
      config: { auth: 'public', rateLimit: perMinute(30) },
      schema: {
        tags: ['auth'],
        body: loginInputSchema,
        response: { 200: authResponseSchema, ...errors },
      },
    },
    async (request) => {
      try {
        const result = await auth.login(request.body, request.ip);
        request.log.info(
          { event: 'auth.login', actor: result.user.id, outcome: 'success' },
          'signed in',
        );
        return result;
      } catch (err) {
        request.log.info(
          { event: 'auth.login', target: request.body.email, outcome: 'failure' },
          'sign-in refused',
        );
        throw err;
      }
    },
  );

  app.post(
    '/logout',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['auth'],
        body: noBodySchema,
        response: { 200: successSchema, 400: errorSchema, 401: errorSchema },
      },
    },
    async (request) => {
      await auth.logout(currentSessionId(request));
      // Its live streams end with it, on every instance (through the event bus).
      app.container.streams.closeSession(currentSessionId(request));
      request.log.info(
        { event: 'auth.logout', actor: currentUser(request).id, outcome: 'success' },
        'signed out',
      );
      return { success: true as const };
    },
  );

  app.get(
    '/profile',
    {
      config: { auth: 'user' },
      schema: { tags: ['auth'], response: { 200: profileResponseSchema, 401: errorSchema } },
    },
    async (request) => ({ user: currentUser(request) }),
  );

  app.put(
    '/profile/time-zone',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['auth'],
        summary: "Store the caller's time zone",
        description:
          "An IANA name (the web sends the browser's when the account has none): alert mails name times in it and the daily digest goes at 08:00 there. 400 for a name that is not a time zone.",
        body: timeZoneInputSchema,
        response: { 200: profileResponseSchema, 400: errorSchema, 401: errorSchema },
      },
    },
    async (request) => ({
      user: await users.setTimeZone(currentUser(request).id, request.body.time_zone),
    }),
  );

  app.put(
    '/profile/preferences',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['auth'],
        summary: "Store the caller's display preferences",
        description:
          "Any of temperature_unit ('F' or 'C': which unit the app and the mails show first; both are always shown), weight_unit ('lbs' or 'kg': how pets' weights are shown; stored weights stay lbs) and time_zone (an IANA name: mail times and the daily digest). A field left out keeps its value; a unit set to null goes back to the browser's default (°F and lbs for US-style locales, else °C and kg). Always the caller's own account. 400 for an unknown unit or time zone, or an empty body.",
        body: profilePreferencesInputSchema,
        response: { 200: profileResponseSchema, 400: errorSchema, 401: errorSchema },
      },
    },
    async (request) => ({
      user: await users.setPreferences(currentUser(request).id, request.body),
    }),
  );

  app.get(
    '/confirm/:token',
    {
      config: { auth: 'public', rateLimit: perMinute(30) },
      schema: {
        tags: ['auth'],
        summary: 'Confirm an e-mail address (link from the welcome mail)',
        description:
          'Answers 303 See Other to /?confirmed=1, or to /?confirmed=0 when the link is unknown or already used.',
        params: confirmParamSchema,
        response: {
          303: z
            .null()
            .describe(
              'See Other: `Location` is /?confirmed=1, or /?confirmed=0 when the link is unknown or already used',
            ),
        },
      },
    },
    async (request, reply) => {
      const ok = await auth.confirmEmail(request.params.token);
      return reply.redirect(ok ? '/?confirmed=1' : '/?confirmed=0', 303);
    },
  );

  app.get(
    '/users',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Users, newest first, in pages of at most 100, with platform counts',
        querystring: pageQuerySchema,
        response: {
          200: usersResponseSchema,
          400: errorSchema,
          401: errorSchema,
          403: errorSchema,
        },
      },
    },
    async (request) => users.list(request.query),
  );

  app.put(
    '/users/:id/role',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        params: idParamSchema,
        body: roleInputSchema,
        response: { 200: profileResponseSchema, ...errors, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const user = await users.changeRole(request.params.id, request.body.role);
      // Their live streams end on every instance and reconnect seeing what the new role sees:
      // a demoted admin gets no other owner's events from this moment.
      app.container.streams.closeUser(user.id);
      request.log.info(
        {
          event: 'admin.role_change',
          actor: currentUser(request).id,
          target: user.id,
          role: user.role,
          outcome: 'success',
        },
        'role changed',
      );
      return { user };
    },
  );

  app.delete(
    '/users/:id',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        params: idParamSchema,
        response: { 200: successSchema, ...errors, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      await users.delete(request.params.id, currentUser(request).id);
      app.container.streams.closeUser(request.params.id);
      request.log.info(
        {
          event: 'admin.user_delete',
          actor: currentUser(request).id,
          target: request.params.id,
          outcome: 'success',
        },
        'user deleted',
      );
      return { success: true as const };
    },
  );
};
