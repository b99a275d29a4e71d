import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import rateLimit from '@fastify/rate-limit';
import type { Config } from './config/env.js';
import type { DbHandle } from './db/index.js';
import { serverOptions } from './server-options.js';
import { services } from './plugins/services.js';
import { errorHandler } from './plugins/error-handler.js';
import { securityHeaders, securityHeadersFor } from './plugins/security-headers.js';
import { rateLimitOptions } from './plugins/rate-limit.js';
import { auth } from './plugins/auth.js';
import { jsonBodies } from './plugins/json-bodies.js';
import { requestLogging } from './plugins/request-logging.js';
import { openApi } from './plugins/openapi.js';
import { registerPublicMetrics } from './plugins/metrics.js';
import { webApp } from './plugins/web-app.js';
import { lifecycle } from './plugins/lifecycle.js';
import { apiRoutes } from './routes/api/index.js';
import { systemClock, type Clock } from './services/clock.js';
import type { MailTransport } from './services/mail-transport.js';
import type { RefusalDelayOptions } from './services/refusal-delay.js';

export { originForm } from './server-options.js';
export { docsCsp } from './plugins/openapi.js';

export interface BuildAppOptions {
  config: Config;
  /** An already open database (tests); otherwise opened from the config. */
  db?: DbHandle;
  clock?: Clock;
  mailTransport?: MailTransport;
  /** Where logs go; default stdout. Tests pass a stream to read them. */
  logStream?: NodeJS.WritableStream;
  /** Start background workers (mail delivery). Off in tests that drive them by hand. */
  startWorkers?: boolean;
  /** How long start-up waits for the event bus's broker (Redis); tests shorten it. */
  busStartTimeoutMs?: number;
  /** How repeated ingest refusals are held (tests pass a sleep they release by hand). */
  refusalDelay?: RefusalDelayOptions;
}

/** The built web app, beside this server (from src/ and from the bundle in dist/ alike). */
const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/**
 * The whole server, one plugin after another; the order is the order requests meet them.
 * Each plugin (plugins/) is a fastify-plugin, so its hooks and decorators are the root's.
 */
export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = opts;
  const headers = securityHeadersFor(config);
  const app = Fastify(serverOptions(config, headers, opts.logStream));
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(services, {
    config,
    db: opts.db,
    clock: opts.clock ?? systemClock,
    mailTransport: opts.mailTransport,
    busStartTimeoutMs: opts.busStartTimeoutMs,
    refusalDelay: opts.refusalDelay,
  });
  await app.register(errorHandler);
  await app.register(securityHeaders, { headers });
  await app.register(rateLimit, rateLimitOptions(config));
  // After the security headers and the rate limiter, so refused requests still carry the
  // headers and floods stay cheap.
  await app.register(auth, {
    auth: app.container.auth,
    deviceAuthenticator: () => app.deviceAuthenticator,
  });
  await app.register(jsonBodies);
  await app.register(requestLogging);
  await app.register(openApi);

  await app.register(apiRoutes, { prefix: '/api' });
  registerPublicMetrics(app, config, app.container.metrics);
  await app.register(webApp, { dist: WEB_DIST });

  await app.register(lifecycle, { startWorkers: opts.startWorkers !== false, closeDb: !opts.db });
  return app;
}
