import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable, loggableDbError } from '../db/index.js';
import { HttpError } from '../services/errors.js';
import { LogSampler } from '../services/log-sampler.js';

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

type ZodIssueLike = {
  keyword?: string;
  instancePath: string;
  message: string;
  params?: Record<string, unknown>;
};

/** Zod's own wording ("Invalid input: …", "Too big: …"); our schema messages never start so. */
const ZOD_DEFAULT = /^(Invalid|Too (big|small)|Unrecognized)\b/;
const TYPE_NAMES: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
};

function sizeLimit(
  field: string,
  params: Record<string, unknown>,
  bound: 'at most' | 'at least',
): string {
  const n = params[bound === 'at most' ? 'maximum' : 'minimum'];
  if (params.origin === 'string') return `${field} must be ${bound} ${String(n)} characters`;
  if (params.origin === 'array') return `${field} must have ${bound} ${String(n)} items`;
  return `${field} must be ${bound} ${String(n)}`;
}

/** One clear sentence for the first problem, naming the field: "name is required", "Unknown field: role". */
export function describeValidation(issues: ZodIssueLike[], context: string | undefined): string {
  const first = issues[0]!;
  const params = first.params ?? {};
  const field = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const msg = first.message;
  if (first.keyword === 'unrecognized_keys' || /^Unrecognized key/i.test(msg)) {
    const keys = Array.isArray(params.keys) ? (params.keys as unknown[]).map(String) : [];
    const where = field ? ` in ${field}` : '';
    if (keys.length === 0) return `Unknown field${where}`;
    return `Unknown field${keys.length > 1 ? 's' : ''}${where}: ${keys.join(', ')}`;
  }
  if (!field) {
    if (context === 'body' && first.keyword === 'invalid_type')
      return 'Request body must be a JSON object';
    return ZOD_DEFAULT.test(msg) ? `The request ${context ?? 'input'} is not valid` : msg;
  }
  // Our schema messages name the field ("name is required", "Pet name is required"), or leave
  // it to be put before them ("must be …", "is required").
  if (!ZOD_DEFAULT.test(msg)) return /^(must\b|is required$)/.test(msg) ? `${field} ${msg}` : msg;
  switch (first.keyword) {
    case 'invalid_type':
      if (/received undefined/i.test(msg)) return `${field} is required`;
      return `${field} must be ${TYPE_NAMES[String(params.expected)] ?? `of type ${String(params.expected)}`}`;
    case 'too_big':
      return sizeLimit(field, params, 'at most');
    case 'too_small':
      return sizeLimit(field, params, 'at least');
    case 'invalid_format':
      return params.format === 'email'
        ? `${field} must be a valid e-mail address`
        : `${field} is not in a valid format`;
    case 'invalid_value':
      return Array.isArray(params.values)
        ? `${field} must be one of: ${(params.values as unknown[]).map(String).join(', ')}`
        : `${field} is not an allowed value`;
    default:
      return `${field} is not valid`;
  }
}

/** While the database cannot be reached: the client tries again, as Retry-After says. */
export const DATABASE_UNAVAILABLE = 'The service is briefly unavailable. Please try again shortly.';
export const DATABASE_RETRY_AFTER_SECONDS = 5;
/** An outage fails every request: at most this many log lines a minute say so. */
const OUTAGE_LOGS_PER_MINUTE = 20;

export function registerErrorHandler(app: FastifyInstance): void {
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
    if (isDatabaseUnavailable(err)) {
      // A full disk or a failing one shows only in failed writes: health reports them.
      app.container.writeFailures.note(err);
      if (outageLogs.take())
        request.log.error(
          { error: loggableDbError(err), event: 'db.unavailable', suppressed: outageLogs.skipped },
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
}
