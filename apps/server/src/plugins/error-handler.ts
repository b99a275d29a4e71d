import type { FastifyError } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable, isTransactionConflict, loggableDbError } from '../db/index.js';
import { HttpError } from '../services/errors.js';
import { LogSampler } from '../services/log-sampler.js';
import { describeValidation, type ZodIssueLike } from '../services/describe-validation.js';

/** Fastify's own error codes, answered in our `{ error }` shape with a clear message. */
const FASTIFY_ERRORS: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: 'Request body must not be empty' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: 'Content-Type must be application/json' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    message: 'Content-Length does not match the body',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'Request body is too large' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: 'Request body is not valid JSON' },
  FST_ERR_CTP_INVALID_TYPE: { status: 400, message: 'Request body is not valid' },
  FST_ERR_VALIDATION: { status: 400, message: 'Request is not valid' },
};

/** While the database cannot be reached: the client tries again, as Retry-After says. */
export const DATABASE_UNAVAILABLE = 'The service is briefly unavailable. Please try again shortly.';
export const DATABASE_RETRY_AFTER_SECONDS = 5;
/** An outage fails every request: at most this many log lines a minute say so. */
const OUTAGE_LOGS_PER_MINUTE = 20;

/** The one error handler (on the root, so every route's): typed errors → status + `{ error }`. */
export const errorHandler = fp(
  async (app) => {
    const outageLogs = new LogSampler(OUTAGE_LOGS_PER_MINUTE);
    app.setErrorHandler((err: FastifyError, request, reply) => {
      if (err instanceof HttpError) {
        return reply.code(err.statusCode).headers(err.headers).send({ error: err.message });
      }
      if (hasZodFastifySchemaValidationErrors(err)) {
        const issues = err.validation as unknown as ZodIssueLike[];
        return reply.code(400).send({ error: describeValidation(issues, err.validationContext) });
      }
      if (err.code && FASTIFY_ERRORS[err.code]) {
        const known = FASTIFY_ERRORS[err.code]!;
        return reply.code(known.status).send({ error: known.message });
      }
      // JSON.parse failures, prototype-poisoning payloads and other client errors from the parser.
      if (
        err instanceof SyntaxError ||
        (err.statusCode && err.statusCode >= 400 && err.statusCode < 500)
      ) {
        const status = err.statusCode && err.statusCode !== 500 ? err.statusCode : 400;
        const text = typeof err.message === 'string' ? err.message : '';
        const message =
          err instanceof SyntaxError || /JSON/i.test(text)
            ? 'Request body is not valid JSON'
            : status === 429
              ? text || 'Too many requests. Please try again later.'
              : status === 400 || !text
                ? 'Request is not valid'
                : text;
        return reply.code(status).send({ error: message });
      }
      if (isTransactionConflict(err)) {
        request.log.warn(
          { error: loggableDbError(err), event: 'db.conflict', route: request.routeOptions.url },
          'a transaction met another writer and was ended; the client may try again',
        );
        return reply.code(503).header('retry-after', '1').send({ error: DATABASE_UNAVAILABLE });
      }
      if (isDatabaseUnavailable(err)) {
        // A full disk or a failing one shows only in failed writes: health reports them.
        app.container.writeFailures.note(err);
        if (outageLogs.take())
          request.log.error(
            {
              error: loggableDbError(err),
              event: 'db.unavailable',
              suppressed: outageLogs.skipped,
            },
            'the database is unavailable',
          );
        return reply
          .code(503)
          .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
          .send({ error: DATABASE_UNAVAILABLE });
      }
      request.log.error({ err }, 'unhandled error');
      // Never a stack, SQL or path in the answer.
      return reply.code(500).send({ error: 'Something went wrong on our side. Please try again.' });
    });
  },
  { name: 'pawguard-error-handler', fastify: '5.x' },
);
