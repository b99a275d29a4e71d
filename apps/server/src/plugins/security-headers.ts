import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import fp from 'fastify-plugin';
import type { Config } from '../config/env.js';

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
 * The server's security headers (DESIGN §5): one policy for every answer, computed once at
 * start (decision 0025). HSTS only where people reach the app over TLS.
 */
export function securityHeadersFor(config: Config): Record<string, string> {
  return helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // HSTS only means something where people reach the app over TLS.
    strictTransportSecurity: config.publicUrl.startsWith('https://')
      ? { maxAge: 31_536_000, includeSubDomains: true }
      : false,
    // Agrees with frame-ancestors 'none' for browsers that only read X-Frame-Options.
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: false,
  });
}

export interface SecurityHeadersOptions {
  /** What securityHeadersFor computed. */
  headers: Record<string, string>;
}

/**
 * helmet's headers on every answer (a hijacked reply, the live stream, copies them), and
 * `Cache-Control: no-store` on every API answer, set as the request arrives so that a refusal
 * carries them as well as a success. Once the server begins to close (its first preClose hook,
 * before streams and listeners end; work in progress has a few seconds to finish), a request
 * that still comes on an open connection is refused with 503: the client tries again, by then
 * at the next server. One synchronous hook: the collars' ingest path pays for each hook a
 * request goes through.
 */
export const securityHeaders = fp<SecurityHeadersOptions>(
  async (app, { headers }) => {
    let closing = false;
    app.addHook('preClose', async () => {
      closing = true;
    });
    const apiHeaders = { ...headers, ...API_NO_STORE };
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(request.url.startsWith('/api') ? apiHeaders : headers);
      if (!closing) return done();
      reply
        .code(503)
        .header('connection', 'close')
        .header('retry-after', '5')
        .type('application/json; charset=utf-8')
        .send(RESTARTING);
    });
  },
  { name: 'pawguard-security-headers', fastify: '5.x' },
);
