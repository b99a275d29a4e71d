import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorSchema,
  noBodySchema,
  streamQuerySchema,
  streamTicketResponseSchema,
} from '@pawguard/shared';
import { currentSessionId, currentUser } from '../../plugins/auth.js';

/** The live stream (DESIGN §4): a ticket with the token, then Server-Sent Events with it. */
export const streamRoutes: FastifyPluginAsyncZod = async (app) => {
  const { streams } = app.container;
  const e = errorSchema;

  app.post(
    '/ticket',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['stream'],
        summary: 'A single-use ticket for GET /api/stream, valid for 60 s',
        body: noBodySchema,
        response: { 201: streamTicketResponseSchema, 401: e },
      },
    },
    async (request, reply) =>
      reply.code(201).send({
        ticket: await streams.issueTicket(currentUser(request).id, currentSessionId(request)),
      }),
  );

  app.get(
    '/',
    {
      // The ticket is the credential: EventSource cannot send an Authorization header.
      config: { auth: 'public' },
      schema: {
        tags: ['stream'],
        summary: 'Live events as Server-Sent Events (reading, device, alert, notification, resync)',
        description:
          'An owner receives the events of their own devices and of those on pets shared with them (docs/pack.md), an admin all. Each event has an id; a reconnect with Last-Event-ID (or last_event_id) replays what it missed from the last 2,000 events, else sends `resync`. A comment line every 20 s keeps the connection open. The server ends the stream when its session logs out or expires, and when its user’s role changes or the account is deleted (reconnect with a new ticket). At most 5 streams a session and 10 an account stay open: a new one closes the oldest, which gets a `superseded` event first.',
        querystring: streamQuerySchema,
        response: {
          200: {
            description: 'The stream: `event:`, `id:` and `data:` lines (JSON), open until closed',
            content: { 'text/event-stream': { schema: z.string() } },
          },
          400: e,
          401: e,
        },
      },
    },
    async (request, reply) => {
      const who = await streams.redeem(request.query.ticket);
      // What it watches besides its own collars: those of pets shared with the person.
      const shared = await streams.sharedWith(who);
      const lastEventId =
        (request.headers['last-event-id'] as string | undefined) ?? request.query.last_event_id;
      reply.hijack();
      const res = reply.raw;
      request.raw.socket.setTimeout(0);
      request.raw.socket.setNoDelay(true);
      res.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        // Never buffered by a proxy in front of us (nginx), never compressed.
        'x-accel-buffering': 'no',
        connection: 'keep-alive',
      });
      // The response is the stream's transport (services/stream-hub.ts, StreamTransport).
      streams.attach(res, who, lastEventId, shared);
    },
  );
};
