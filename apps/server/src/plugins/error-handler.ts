import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from '../services/errors.js';

/** Fastify's own error codes, answered in our `{ error }` shape with a clear message. */
const FASTIFY_ERRORS: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: 'Request body must not be empty' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: 'Content-Type must be application/json' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: 'Content-Length does not match the body' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'Request body is too large' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: 'Request body is not valid JSON' },
  FST_ERR_CTP_INVALID_TYPE: { status: 400, message: 'Request body is not valid' },
  FST_ERR_VALIDATION: { status: 400, message: 'Request is not valid' },
};

type ZodIssueLike = { instancePath: string; message: string };

function describeValidation(issues: ZodIssueLike[], context: string | undefined): string {
  const first = issues[0]!;
  const field = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const msg = first.message;
  // Our schema messages already name the field ("name is required"); Zod's defaults do not.
  if (!field) {
    if (/Unrecognized key/i.test(msg)) return msg.replace(/^Unrecognized keys?:?/i, 'Unknown field:').trim();
    return context === 'body' && /expected object/i.test(msg) ? 'Request body must be a JSON object' : msg;
  }
  if (msg.toLowerCase().startsWith(field.toLowerCase())) return msg;
  if (/Invalid input: expected .*, received undefined/i.test(msg)) return `${field} is required`;
  return `${field}: ${msg}`;
}

export function registerErrorHandler(app: FastifyInstance): void {
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
    if (err instanceof SyntaxError || (err.statusCode && err.statusCode >= 400 && err.statusCode < 500)) {
      const status = err.statusCode && err.statusCode !== 500 ? err.statusCode : 400;
      const message =
        status === 429
          ? err.message
          : err instanceof SyntaxError || /JSON/i.test(err.message)
            ? 'Request body is not valid JSON'
            : status === 400
              ? 'Request is not valid'
              : err.message;
      return reply.code(status).send({ error: message });
    }
    request.log.error({ err }, 'unhandled error');
    // Never a stack, SQL or path in the answer.
    return reply.code(500).send({ error: 'Something went wrong on our side. Please try again.' });
  });
}
