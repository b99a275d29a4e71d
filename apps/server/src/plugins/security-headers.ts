import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyInstance } from 'fastify';

/**
 * The headers helmet sets for these options. Our policy is the same for every request, so
 * helmet runs once, here, against a response that only records them: @fastify/helmet built
 * the middleware again for every request (parsing the policy each time), and even run once
 * per request its dozen `setHeader` calls cost about 5 % of the server's CPU on the collars'
 * ingest path.
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const csp = options.contentSecurityPolicy;
  const directives = typeof csp === 'object' ? Object.values(csp.directives ?? {}) : [];
  // A directive computed per request (a nonce) would be frozen into one value for all.
  if (
    directives.some(
      (d) =>
        typeof d === 'function' || (Array.isArray(d) && d.some((v) => typeof v === 'function')),
    )
  )
    throw new Error('Security headers are fixed: a CSP directive cannot be a function');
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let done = false;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error(String(err));
    done = true;
  });
  if (!done) throw new Error('helmet did not finish with a fixed set of headers');
  return headers;
}

/** API answers are never cached by browsers or proxies. */
export const API_NO_STORE = { 'cache-control': 'no-store' } as const;

/** While the server shuts down: sent as text, since a route's own 503 schema is not this. */
const RESTARTING = JSON.stringify({
  error: 'PawGuard is restarting. Please try again in a few seconds.',
});

/**
 * helmet's headers on every answer (a hijacked reply, the live stream, copies them), and
 * `Cache-Control: no-store` on every API answer, set as the request arrives so that a refusal
 * carries them as well as a success. While `closing()` (the server shuts down, and work in
 * progress has a few seconds to finish), a request that still comes on an open connection is
 * refused with 503: the client tries again, by then at the next server. One synchronous hook:
 * the collars' ingest path pays for each hook a request goes through.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  headers: Record<string, string>,
  closing: () => boolean,
): void {
  const apiHeaders = { ...headers, ...API_NO_STORE };
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith('/api') ? apiHeaders : headers);
    if (!closing()) return done();
    reply
      .code(503)
      .header('connection', 'close')
      .header('retry-after', '5')
      .type('application/json; charset=utf-8')
      .send(RESTARTING);
  });
}
