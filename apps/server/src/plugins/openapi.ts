import fp from 'fastify-plugin';
import type { onSendHookHandler } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { z } from 'zod';
import { errorSchema } from '@pawguard/shared';
import { APP_VERSION } from '../version.js';
import { API_NO_STORE } from './security-headers.js';

/**
 * The API's OpenAPI description, generated from the routes' schemas, and its documentation UI
 * at /api/docs. Registered before the routes, whose schemas it reads as they are added.
 */
export const openApi = fp(
  async (app) => {
    // The documentation UI's files come with @fastify/static's own Cache-Control; like every
    // other API answer they are sent with no-store (the onRequest hook's header is overwritten).
    const noStore: onSendHookHandler = (_request, reply, payload, done) => {
      reply.headers(API_NO_STORE);
      done(null, payload);
    };
    app.addHook('onRoute', (route) => {
      if (route.url.startsWith('/api/docs'))
        route.onSend = [...[route.onSend ?? []].flat(), noStore];
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
  },
  { name: 'pawguard-openapi', fastify: '5.x' },
);

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
