import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyServerOptions,
  type onRequestHookHandler,
  type onSendHookHandler,
} from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  jsonSchemaTransform,
} from 'fastify-type-provider-zod';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Config } from './config/env.js';
import { loggableDbError, migrateToLatest, openDatabase, type DbHandle } from './db/index.js';
import { createContainer, type Container } from './container.js';
import { registerErrorHandler } from './plugins/error-handler.js';
import { registerAuth, type DeviceAuthenticator } from './plugins/auth.js';
import { deviceKeyAuthenticator } from './plugins/device-auth.js';
import {
  API_NO_STORE,
  helmetHeaders,
  registerSecurityHeaders,
} from './plugins/security-headers.js';
import { apiRoutes } from './routes/api/index.js';
import { MetricsListener, registerPublicMetrics } from './plugins/metrics.js';
import { ensureFirstAdmin, resolveJwtSecret } from './bootstrap.js';
import { octal } from './db/data-dir-lock.js';
import { systemClock, type Clock } from './services/clock.js';
import type { MailTransport } from './services/mail-transport.js';
import { APP_VERSION } from './version.js';
import { errorSchema, noBodySchema } from '@pawguard/shared';
import { z } from 'zod';
import { TooManyRequestsError } from './services/errors.js';
import type { RefusalDelayOptions } from './services/refusal-delay.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    container: Container;
    /** The devices feature sets this to authenticate collars (`Authorization: Device <key>`). */
    deviceAuthenticator: DeviceAuthenticator | undefined;
    /** GET /metrics on METRICS_PORT (listening once the app is ready); null without it. */
    metricsListener: MetricsListener | null;
  }
}

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

/** The longest part of an address (a path parameter) the router takes. */
const MAX_PARAM_LENGTH = 200;
const PART_TOO_LONG = 'A part of the address is too long';
const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');
/**
 * The built web app's pages. The build prerenders some screens (the landing page, /emergency)
 * and lists in pages.json which HTML file answers which path; any other path gets the plain
 * shell, so a visitor never glimpses a page other than the one the app will show.
 */
export function loadWebPages(dist: string): { pageFor: (url: string) => string } | undefined {
  if (!fs.existsSync(path.join(dist, 'index.html'))) return undefined;
  let manifest: { pages: Record<string, string>; fallback: string } = {
    pages: {},
    fallback: 'index.html',
  };
  const manifestFile = path.join(dist, 'pages.json');
  if (fs.existsSync(manifestFile)) manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  return {
    pageFor(url) {
      // React Router matches paths case-insensitively and ignores a trailing slash.
      const pathname = url
        .split(/[?#]/)[0]!
        .toLowerCase()
        .replace(/(.)\/+$/, '$1');
      return manifest.pages[pathname] ?? manifest.fallback;
    },
  };
}

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

/** The log levels at which an info line is written. */
const INFO_LOGGED = new Set(['info', 'debug', 'trace']);

/** Collar and API bodies are small; a 100 kB cap keeps a flood of large bodies cheap to refuse. */
export const BODY_LIMIT = 100 * 1024;

/** Tokens in URLs (mail links, stream tickets) never reach the log. */
export function redactUrl(url: string): string {
  return url
    .replace(/(\/confirm\/)[^/?#]+/, '$1[redacted]')
    .replace(/([?&](?:ticket|token|authorization|[\w-]*key)=)[^&#]*/gi, '$1[redacted]');
}

/**
 * The documentation UI's CSP, relaxed only where it must be (DESIGN §5: it sets inline
 * styles). swagger-ui's own header also asks to upgrade insecure requests, which leaves the
 * page blank when the server is opened over plain HTTP on any host but localhost (a LAN
 * address, a container), and lets the page be framed by its own origin; both are dropped,
 * as are the outside hosts it allows images and fonts from.
 */
export function docsCsp(header: string): string {
  return header
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive !== '' && directive !== 'upgrade-insecure-requests')
    .map((directive) => {
      if (directive.startsWith('style-src ')) return "style-src 'self' 'unsafe-inline'";
      if (directive.startsWith('frame-ancestors ')) return "frame-ancestors 'none'";
      // The page loads nothing from other hosts (its validator badge is off): no outside
      // host stays allowed, not validator.swagger.io nor any https: font.
      if (directive.startsWith('img-src ')) return "img-src 'self' data:";
      if (directive.startsWith('font-src ')) return "font-src 'self' data:";
      return directive;
    })
    .join('; ');
}

function loggerOptions(
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

export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = opts;
  const clock = opts.clock ?? systemClock;
  const securityHeaders = helmetHeaders({
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

  const app = Fastify({
    logger: loggerOptions(config, opts.logStream),
    // Client IPs come from the socket; X-Forwarded-For counts only when the socket is one of
    // the proxies TRUST_PROXY lists, so per-IP limits cannot be dodged by sending the header.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    bodyLimit: BODY_LIMIT,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    requestTimeout: 30_000,
    connectionTimeout: 60_000,
    // Refused while closing by the security headers' hook instead, with the API's answer and
    // headers (registerSecurityHeaders).
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
    // One access line per request (below), not Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const dbHandle =
    opts.db ?? (await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl }));
  const ownsDb = !opts.db;
  if (dbHandle.dataDirTightenedFrom !== null)
    app.log.warn(
      { dataDir: config.dataDir, mode: octal(dbHandle.dataDirTightenedFrom) },
      'DATA_DIR was open to other accounts; it is private (0700) now',
    );
  dbHandle.onConnectionLost = (err) =>
    app.log.warn(
      { error: loggableDbError(err), event: 'db.connection_lost' },
      'A PostgreSQL connection ended (dropped, or given up on); a new one is opened when needed',
    );
  if (dbHandle.checkpointer) {
    dbHandle.checkpointer.onError = (err) =>
      app.log.error({ err }, 'the WAL checkpointer failed; SQLite checkpoints inline from now on');
  }
  try {
    await migrateToLatest(dbHandle.migrationDb ?? dbHandle.db, dbHandle.schema);
  } catch (err) {
    if (ownsDb) await dbHandle.close();
    throw err;
  }
  const container = createContainer({
    config,
    dbHandle,
    jwtSecret: resolveJwtSecret(config),
    clock,
    log: app.log,
    ...(opts.mailTransport ? { mailTransport: opts.mailTransport } : {}),
    ...(opts.busStartTimeoutMs ? { busStartTimeoutMs: opts.busStartTimeoutMs } : {}),
    ...(opts.refusalDelay ? { refusalDelay: opts.refusalDelay } : {}),
  });
  await ensureFirstAdmin(config, container.repos.users, app.log);

  app.decorate('config', config);
  app.decorate('container', container);
  // Set here, on the root instance: a route plugin's assignment would stay in its own context.
  app.decorate('deviceAuthenticator', deviceKeyAuthenticator(container.keys));
  const metricsListener =
    config.metricsPort === undefined
      ? null
      : new MetricsListener(container.metrics, config.metricsToken);
  app.decorate('metricsListener', metricsListener);
  try {
    await container.bus.start?.();
  } catch (err) {
    // Nothing else has started yet: what is open is closed, so the process can exit.
    await container.bus.close();
    container.mailTransport.close();
    if (ownsDb) await dbHandle.close();
    throw err;
  }

  // Open streams would keep the server from closing: they end first.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    container.streams.close();
    await container.mqtt.close();
    await metricsListener?.close();
  });
  app.addHook('onClose', async () => {
    container.ingest.stopStats();
    await container.ingest.drain();
    await container.bus.close();
    container.housekeeping.stop();
    await container.activityJob.stop();
    await container.insightsMail.stop();
    await container.alerts.stopSweeping();
    await container.alertMail.stop();
    await container.outboxWorker.stop();
    container.mailTransport.close();
    if (ownsDb) await dbHandle.close();
  });

  registerErrorHandler(app);
  // Only JSON bodies are accepted: anything else (text/plain included) answers 415.
  app.removeContentTypeParser('text/plain');

  registerSecurityHeaders(app, securityHeaders, () => closing);

  await app.register(rateLimit, {
    global: true,
    max: Math.ceil(1200 * config.rateLimitMultiplier),
    timeWindow: 60_000,
    addHeadersOnExceeding: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
    },
    // Thrown as our own error type, so the one error handler shapes it like every other.
    errorResponseBuilder: (_req, ctx) =>
      new TooManyRequestsError(
        ctx.ttl / 1000,
        `Too many requests. Please try again in ${Math.ceil(ctx.ttl / 1000)} seconds.`,
      ),
  });

  // After helmet and the rate limiter, so refused requests still carry the headers and floods stay cheap.
  registerAuth(app, { auth: container.auth, deviceAuthenticator: () => app.deviceAuthenticator });

  // The documentation UI's files come with @fastify/static's own Cache-Control; like every
  // other API answer they are sent with no-store (the onRequest hook's header is overwritten).
  const noStore: onSendHookHandler = (_request, reply, payload, done) => {
    reply.headers(API_NO_STORE);
    done(null, payload);
  };
  // A call that takes no body may still come with `Content-Type: application/json` and nothing
  // after it (many HTTP clients send the header on every POST and PUT): that is a call without
  // a body, not an empty JSON document refused with 400.
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
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/docs')) route.onSend = [...[route.onSend ?? []].flat(), noStore];
    if (route.schema?.body === noBodySchema)
      route.onRequest = [...[route.onRequest ?? []].flat(), noBodyAfterAll];
  });

  // One line per answered request. Routes on the hot path set a quieter logLevel (collars'
  // readings are counted instead, in one line a minute), and then this costs them a level check.
  app.addHook('onResponse', (request, reply, done) => {
    if (INFO_LOGGED.has(request.log.level))
      request.log.info(
        { req: request, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime },
        'request completed',
      );
    done();
  });

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'PawGuard API',
        version: APP_VERSION,
        description:
          'Pets, collars, readings and alerts. A refused call answers `{ "error": "…" }`. While the database cannot be reached (or its disk is full), a call that needs it answers 503 with `Retry-After`; a collar sends its reading again (a reading with its own timestamp is stored once).',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          device: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description: 'Device <key>',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: (document) =>
      describeResponses(
        nullInNullableEnums(
          'openapiObject' in document ? document.openapiObject : document.swaggerObject,
        ),
      ),
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    transformStaticCSP: docsCsp,
    // No validator badge: it would send the document to validator.swagger.io from every visitor.
    uiConfig: { docExpansion: 'list', validatorUrl: null },
  });

  await app.register(apiRoutes, { prefix: '/api' });
  registerPublicMetrics(app, config, container.metrics);

  const web = loadWebPages(WEB_DIST);
  const sendPage = (reply: FastifyReply, url: string) =>
    reply.header('cache-control', 'no-cache').sendFile(web!.pageFor(url), WEB_DIST);
  if (web) {
    await app.register(fastifyStatic, {
      root: WEB_DIST,
      // Looked up per request (not listed once at start), so a rebuild never strands new chunks.
      wildcard: true,
      index: false,
      // The build writes .br and .gz beside each text file; the one the browser accepts is sent.
      preCompressed: true,
      setHeaders: (res, filePath) => {
        // Hashed asset names change with content, so they may be cached for a year.
        res.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
    // The app's own page, not an API operation: kept out of the OpenAPI document.
    app.get('/', { schema: { hide: true } }, (request, reply) => sendPage(reply, request.url));
  }
  // Rate-limited like every route, so probing unknown paths costs the same as calling real ones.
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, (request, reply) => {
    const pathOnly = request.url.split('?')[0]!;
    // A screen of the single-page app: any other GET (or HEAD, as link checkers and uptime
    // monitors ask) whose last segment is not a file name.
    const isScreen =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !pathOnly.startsWith('/api') &&
      !/\.[A-Za-z0-9]+$/.test(pathOnly);
    if (web && isScreen) return sendPage(reply, request.url);
    // What the router refuses as too long when no route matches it otherwise (a GET that the
    // web app's catch-all took): refused the same way.
    if (
      pathOnly.startsWith('/api/') &&
      pathOnly.split('/').some((s) => s.length > MAX_PARAM_LENGTH)
    )
      return reply.code(400).send({ error: PART_TOO_LONG });
    // The path is echoed only in part: a long one could carry something that belongs in no answer.
    return reply.code(404).send({
      error: `No route for ${request.method} ${pathOnly.length > 80 ? `${pathOnly.slice(0, 80)}…` : pathOnly}`,
    });
  });

  app.addHook('onReady', async () => {
    container.streams.start();
    container.ingest.startStats(app.log);
    if (config.mqttPort !== undefined) {
      const port = await container.mqtt.listen(config.mqttPort, config.host);
      app.log.info({ port }, 'collars connect over MQTT on this port');
    }
    if (metricsListener && config.metricsPort !== undefined) {
      const port = await metricsListener.listen(config.metricsPort, config.metricsHost);
      app.log.info({ port }, 'GET /metrics is served on this port');
    }
  });
  if (opts.startWorkers !== false)
    app.addHook('onReady', async () => {
      container.outboxWorker.start();
      container.housekeeping.start();
      container.activityJob.start();
      container.insightsMail.start();
      container.alerts.startSweeping();
      container.alertMail.start();
    });
  return app;
}

/**
 * OpenAPI 3.0 marks an optional value `nullable`, but an `enum` still lists every allowed value:
 * a nullable enum without null in its list refuses null to a client that validates answers
 * (a pet's `sex`, an alert's `level`), though the server sends it. Adds the null.
 */
export function nullInNullableEnums<T>(node: T): T {
  if (Array.isArray(node)) {
    for (const item of node) nullInNullableEnums(item);
  } else if (node !== null && typeof node === 'object') {
    const schema = node as Record<string, unknown>;
    if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null))
      schema.enum = [...(schema.enum as unknown[]), null];
    for (const value of Object.values(schema)) nullInNullableEnums(value);
  }
  return node;
}

/** What each status means across the API, for answers whose schema gives no words of its own. */
const STATUS_WORDS: Record<string, string> = {
  200: 'OK',
  201: 'Created',
  400: 'Bad input: `error` names the field',
  401: 'Not signed in, or the credentials (password, token or device key) are not valid',
  403: 'Not allowed for this account or collar',
  404: 'Not found, or not yours',
  409: 'In conflict with what is stored: `error` says what',
  413: 'The body is over the size limit',
  415: 'The body is not JSON: `Content-Type` must be application/json',
  429: 'Too many requests: try again after `Retry-After` seconds',
  503: 'The service is briefly unavailable: try again after `Retry-After` seconds',
};

/** `{ error }`, as the document writes it for the routes' own refusals. */
const ERROR_JSON_SCHEMA = z.toJSONSchema(errorSchema, { target: 'openapi-3.0' });

type Operation = {
  requestBody?: unknown;
  responses?: Record<string, { description?: string; content?: unknown }>;
};

/**
 * Gives every answer of the document its meaning (the generator writes "Default Response"),
 * documents on each operation that takes a body the refusals every body may get before its
 * route runs (over the size limit, 413; not JSON, 415; both answered with `{ error }`), and
 * leaves redirects without a body.
 */
export function describeResponses<T>(document: T): T {
  const paths = (document as { paths?: Record<string, Record<string, Operation>> }).paths ?? {};
  const refusal = (status: string) => ({
    description: STATUS_WORDS[status],
    content: { 'application/json': { schema: ERROR_JSON_SCHEMA } },
  });
  for (const operation of Object.values(paths).flatMap((p) => Object.values(p))) {
    const responses = (operation.responses ??= {});
    if (operation.requestBody)
      for (const status of ['413', '415']) responses[status] ??= refusal(status);
    for (const [status, response] of Object.entries(responses)) {
      if (response.description === 'Default Response' && STATUS_WORDS[status])
        response.description = STATUS_WORDS[status];
      // A redirect has no body; its schema (null) is there for its words.
      if (status.startsWith('3')) delete response.content;
    }
  }
  return document;
}
