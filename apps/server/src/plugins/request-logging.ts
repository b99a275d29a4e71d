import fp from 'fastify-plugin';
import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config/env.js';

/** Tokens in URLs (mail links, stream tickets) never reach the log. */
export function redactUrl(url: string): string {
  return url
    .replace(/(\/confirm\/)[^/?#]+/, '$1[redacted]')
    .replace(/([?&](?:ticket|token|authorization|[\w-]*key)=)[^&#]*/gi, '$1[redacted]');
}

/** The logger the server is built with: the level, where lines go, and what never appears. */
export function loggerOptions(
  config: Config,
  stream?: NodeJS.WritableStream,
): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    ...(stream ? { stream } : {}),
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        '*.password',
        '*.token',
        '*.device_key',
        '*.ticket',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; ip?: string; id?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.ip,
      }),
    },
  };
}

/** The log levels at which an info line is written. */
const INFO_LOGGED = new Set(['info', 'debug', 'trace']);

/**
 * One line per answered request (Fastify's own two are off: serverOptions). Routes on the hot
 * path set a quieter logLevel (collars' readings are counted instead, in one line a minute),
 * and then this costs them a level check.
 */
export const requestLogging = fp(
  async (app) => {
    app.addHook('onResponse', (request, reply, done) => {
      if (INFO_LOGGED.has(request.log.level))
        request.log.info(
          { req: request, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime },
          'request completed',
        );
      done();
    });
  },
  { name: 'pawguard-request-logging', fastify: '5.x' },
);
