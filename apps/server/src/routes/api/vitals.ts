import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  backtestQuerySchema,
  backtestResponseSchema,
  deviceIdParamSchema,
  errorSchema,
  historyQuerySchema,
  historyResponseSchema,
  idParamSchema,
  latestVitalsResponseSchema,
  readingsMapResponseSchema,
  readingsQuerySchema,
  readingUploadResponseSchema,
  readingUploadSchema,
  vitalsPageResponseSchema,
  vitalsQuerySchema,
} from '@pawguard/shared';
import { currentUser } from '../../plugins/auth.js';
import { chargeChartRead } from './chart-reads.js';
import { parseReadingUpload, READINGS_BODY_LIMIT } from '../../services/reading-upload.js';
import { refusalFor } from '../../services/metrics.js';
import { ForbiddenError } from '../../services/errors.js';

/** An upload's size as its budget counts it: its Content-Length, or its JSON when chunked. */
function uploadBytes(request: FastifyRequest): number {
  const length = Number(request.headers['content-length']);
  return Number.isFinite(length) && length > 0
    ? length
    : Buffer.byteLength(JSON.stringify(request.body) ?? '');
}

/**
 * The answer as JSON, without parsing it again against its schema first (which copies every
 * object of it): for the answers the server builds itself to their schema's exact shape and
 * sends most often, the acknowledgement of an upload and the chart reads. Their schemas still
 * describe them in the OpenAPI document, and tests check that each answer parses to itself.
 */
const plainJson = () => (data: unknown) => JSON.stringify(data);

/** Readings: collars post them; owners and admins read them. */
export const vitalsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ingest, readings, devices, metrics, budget, refusals } = app.container;
  /** The collar each upload in flight is for, as its preParsing step found it. */
  const collarOf = new WeakMap<FastifyRequest, string>();
  const e = errorSchema;
  const readErrors = { 400: e, 401: e, 404: e };
  const chartRead = chargeChartRead(app);

  app.post(
    '/:deviceId/vitals',
    {
      // A fleet behind one address (a NAT, a gateway) must not share one per-IP budget: each
      // collar has its own limit below, and this per-address ceiling only stops a flood.
      config: {
        auth: 'device_or_user',
        rateLimit: { max: Math.ceil(120_000 * app.config.rateLimitMultiplier), timeWindow: 60_000 },
      },
      // The acknowledgement stays lean: never compressed on the hot path (a route option, read
      // when the route is added; in `config` it was ignored).
      compress: false,
      // Readings are counted, not logged one by one (the hot path).
      logLevel: 'warn',
      // The collar this upload is for, and its budget, before its body is even read: a flood
      // over its budget costs its refusals and not the parsing of what it sends (RES-7).
      preParsing: async (request, reply) => {
        const param = deviceIdParamSchema.safeParse(request.params);
        if (!param.success) return; // answered 400 by the validation below
        const deviceId = param.data.deviceId;
        let uuid: string;
        let owner: string | null | undefined;
        if (request.device) {
          if (request.device.deviceId !== deviceId)
            throw new ForbiddenError('This device key belongs to another collar');
          uuid = request.device.id;
        } else {
          const device = await devices.getByDeviceId(currentUser(request), deviceId);
          uuid = device.id;
          owner = device.user_id;
        }
        collarOf.set(request, uuid);
        try {
          budget.checkCollar(uuid, app.container.clock.now().getTime(), owner);
        } catch (err) {
          // A repeated refusal waits a second on a timer, then closes the connection: its
          // body is never read, nor drained for the next request on it.
          if (await refusals.hold(err, request.raw.socket)) reply.header('connection', 'close');
          throw err;
        }
      },
      // Every refusal counts, wherever it came from (the key check, the limits, the body).
      onResponse: (_request, reply, done) => {
        if (reply.statusCode >= 400) metrics.ingestRefused('http', refusalFor(reply.statusCode));
        done();
      },
      bodyLimit: READINGS_BODY_LIMIT,
      schema: {
        tags: ['readings'],
        summary: 'Store one reading, or a backlog of up to 1,000 (a collar, its owner or an admin)',
        description: `Takes the printed Device ID. A collar authenticates with \`Authorization: Device <key>\`; a key of another collar answers 403. Answers once the readings are on disk. A repeated (device, timestamp) is stored once and answered with the stored reading. A timestamp more than 5 minutes ahead of the server's clock or more than ${app.config.readingsMaxAgeDays} days old (\`READINGS_MAX_AGE_DAYS\`) is refused (400); any bad item of a list refuses the whole request, naming the item (readings[3].humidity …), and nothing of it is stored. Every upload, whoever sends it, is charged to the collar's and its owner account's ingest budgets (requests, readings and bytes a minute and an hour); over them, or over the account's storage quota of readings kept, it is refused whole with 429, \`Retry-After\` (seconds) and \`{ error }\`. A collar's or account's first refusal is answered at once; further ones before its \`Retry-After\` has passed are answered about a second later, with \`Connection: close\`.`,
        params: deviceIdParamSchema,
        body: readingUploadSchema,
        response: {
          201: readingUploadResponseSchema,
          400: e,
          401: e,
          403: e,
          404: e,
          413: e,
          429: e,
        },
      },
      // Checked by hand below, to name the item of a batch; the schema above documents it.
      validatorCompiler: ({ httpPart }) =>
        httpPart === 'body'
          ? (data) => ({ value: data })
          : (data) => {
              const r = deviceIdParamSchema.safeParse(data);
              return r.success ? { value: r.data } : { error: r.error as unknown as Error };
            },
      // The acknowledgement is what the server built itself: plain JSON, no second validation.
      serializerCompiler: plainJson,
    },
    async (request, reply) => {
      const deviceId = request.params.deviceId;
      const uuid = collarOf.get(request)!;
      const parsed = await parseReadingUpload(
        request.body,
        app.container.clock.now().getTime(),
        deviceId,
        app.config.readingsMaxAgeDays,
      );
      // Charged to the collar's and its owner's ingest budgets, whoever posts (RES-7): one
      // noisy collar or account cannot crowd the rest; over them, 429 with Retry-After.
      let stored;
      try {
        stored = await ingest.submit(uuid, parsed, uploadBytes(request));
      } catch (err) {
        if (await refusals.hold(err, request.raw.socket)) reply.header('connection', 'close');
        throw err;
      }
      metrics.readingsIngested('http', stored.length);
      return reply.code(201).send({ vitals: Array.isArray(request.body) ? stored : stored[0]! });
    },
  );

  app.get(
    '/:id/vitals',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['readings'],
        summary: 'Readings of a device, newest first (limit ≤ 1,000, offset ≤ 10,000)',
        description:
          '`total` is the number of readings the collar keeps. Pages reach back 11,000 readings at most; older readings are read by time with `GET /api/devices/{id}/readings?from=&to=`.',
        params: idParamSchema,
        querystring: vitalsQuerySchema,
        response: { 200: vitalsPageResponseSchema, ...readErrors },
      },
    },
    async (request) => readings.page(currentUser(request), request.params.id, request.query),
  );

  app.get(
    '/:id/vitals/latest',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['readings'],
        summary: 'The latest reading of a device (greatest timestamp), or null',
        params: idParamSchema,
        response: { 200: latestVitalsResponseSchema, ...readErrors },
      },
    },
    async (request) => ({ vitals: await readings.latest(currentUser(request), request.params.id) }),
  );

  app.get(
    '/:id/readings',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['readings'],
        summary: 'Readings as a map keyed by reading id: latest=1, or from and to (ISO-8601)',
        description:
          'At most the newest 1,000 readings of the window (all time without from and to), oldest first; from and to at most 31 days apart.',
        params: idParamSchema,
        querystring: readingsQuerySchema,
        response: { 200: readingsMapResponseSchema, ...readErrors },
      },
    },
    async (request) => ({
      readings: await readings.map(currentUser(request), request.params.id, request.query),
    }),
  );

  app.get(
    '/:id/history',
    {
      config: { auth: 'user' },
      preHandler: chartRead,
      schema: {
        tags: ['readings'],
        summary: 'Temperature, humidity and heart rate per time bucket (min, avg, max)',
        description:
          'Summed from rollups: 60-second buckets for 1h, 180-second for 24h, one-hour for 7d, with the owner’s thresholds (°F). A chart read: an account makes up to 200 at once, then 20 a second (history, back-test, activity and insights together; `RATE_LIMIT_MULTIPLIER` scales it); past that, 429 with `Retry-After`.',
        params: idParamSchema,
        querystring: historyQuerySchema,
        response: { 200: historyResponseSchema, ...readErrors, 429: e },
      },
      serializerCompiler: plainJson,
    },
    async (request) =>
      readings.history(currentUser(request), request.params.id, request.query.range),
  );

  app.get(
    '/:id/risk/backtest',
    {
      config: { auth: 'user' },
      preHandler: chartRead,
      schema: {
        tags: ['readings'],
        summary: 'How often the heat-risk model and the plain thresholds would have alerted',
        description:
          'Over the last `days` (1–30, default 7, in whole minutes) of stored readings, summed from rollups: heat alerts (each rise above SAFE), minutes above SAFE and the highest level, for the owner’s thresholds alone and with the heat-risk model beside them (the higher of the two, as the heat alert follows); `model_only_alerts` counts the model’s alerts during which the thresholds stayed SAFE. Owner or admin; another user’s device answers 404. A chart read: counted in the account’s 200 at once, then 20 a second; past that, 429 with `Retry-After`.',
        params: idParamSchema,
        querystring: backtestQuerySchema,
        response: { 200: backtestResponseSchema, ...readErrors, 429: e },
      },
      serializerCompiler: plainJson,
    },
    async (request) =>
      readings.backtest(currentUser(request), request.params.id, request.query.days),
  );
};
