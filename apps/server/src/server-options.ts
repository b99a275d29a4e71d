import { LogController, type FastifyReply, type FastifyServerOptions } from 'fastify';
import type { Config } from './config/env.js';
import { loggerOptions } from './plugins/request-logging.js';
import { API_NO_STORE } from './plugins/security-headers.js';

/** The longest part of an address (a path parameter) the router takes. */
export const MAX_PARAM_LENGTH = 200;
export const PART_TOO_LONG = 'A part of the address is too long';

/** Collar and API bodies are small; a 100 kB cap keeps a flood of large bodies cheap to refuse. */
export const BODY_LIMIT = 100 * 1024;

/**
 * The request target as every hook, the router and the web app's files read it: a target in
 * absolute form (`http://host/api/…`, RFC 9112 §3.2.2) becomes its path, and repeated slashes
 * in the path count as one (`//api//dogs` is `/api/dogs`). The query is left as it is. Costs a
 * character check and a search per request.
 */
export function originForm(url: string): string {
  let target = url;
  if (target.charCodeAt(0) !== 47 /* '/' */) {
    const authority = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(target);
    if (!authority) return target;
    target = target.slice(authority[0].length);
    if (target.charCodeAt(0) !== 47) target = `/${target}`;
  }
  const query = target.indexOf('?');
  const pathname = query === -1 ? target : target.slice(0, query);
  if (!pathname.includes('//')) return target;
  return pathname.replace(/\/{2,}/g, '/') + (query === -1 ? '' : target.slice(query));
}

/**
 * What the Fastify server is built with, before any plugin: the logger, limits and timeouts,
 * how a request target is read, and the answer to what the router refuses before any hook
 * runs (which therefore carries `securityHeaders` itself).
 */
export function serverOptions(
  config: Config,
  securityHeaders: Record<string, string>,
  logStream?: NodeJS.WritableStream,
): FastifyServerOptions {
  return {
    logger: loggerOptions(config, logStream),
    // Client IPs come from the socket; X-Forwarded-For counts only when the socket is one of
    // the proxies TRUST_PROXY lists, so per-IP limits cannot be dodged by sending the header.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    bodyLimit: BODY_LIMIT,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    requestTimeout: 30_000,
    connectionTimeout: 60_000,
    // Refused while closing by the security headers' hook instead, with the API's answer and
    // headers (plugins/security-headers.ts).
    return503OnClosing: false,
    // `/api/alerts/` is `/api/alerts` on every route alike (the prefixed lists answered both
    // ways, the rest only without the slash); the target is a path, with `//` as `/`, before
    // anything reads it (originForm).
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH, ignoreTrailingSlash: true },
    rewriteUrl: (req) => originForm(req.url ?? '/'),
    // Refused by the router before any route runs: the same { error } answer as the rest, and
    // a status from the API's set (DESIGN §4).
    frameworkErrors: (error, request, reply: FastifyReply) => {
      // Answered before any hook runs: the security headers are added here.
      reply.headers(securityHeaders);
      if (request.url.startsWith('/api')) reply.headers(API_NO_STORE);
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH')
        return reply.code(400).send({ error: PART_TOO_LONG });
      return reply.code(400).send({ error: 'The address is not valid' });
    },
    genReqId: () => crypto.randomUUID(),
    // One access line per request (plugins/request-logging.ts), not Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
  };
}
