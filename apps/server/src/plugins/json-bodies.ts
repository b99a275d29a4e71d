import fp from 'fastify-plugin';
import type { onRequestHookHandler } from 'fastify';
import { noBodySchema } from '@pawguard/shared';

/**
 * A call that takes no body may still come with `Content-Type: application/json` and nothing
 * after it (many HTTP clients send the header on every POST and PUT): that is a call without
 * a body, not an empty JSON document refused with 400.
 */
const noBodyAfterAll: onRequestHookHandler = (request, _reply, done) => {
  const { headers } = request;
  const length = headers['content-length'];
  if (
    (length === '0' || (length === undefined && headers['transfer-encoding'] === undefined)) &&
    /^application\/json\s*(;|$)/i.test(headers['content-type'] ?? '')
  )
    delete headers['content-type'];
  done();
};

/**
 * Only JSON bodies are accepted: anything else (text/plain included) answers 415. Registered
 * after auth, whose hook therefore runs first on each route.
 */
export const jsonBodies = fp(
  async (app) => {
    app.removeContentTypeParser('text/plain');
    app.addHook('onRoute', (route) => {
      if (route.schema?.body === noBodySchema)
        route.onRequest = [...[route.onRequest ?? []].flat(), noBodyAfterAll];
    });
  },
  { name: 'pawguard-json-bodies', fastify: '5.x' },
);
