import type { RateLimitPluginOptions } from '@fastify/rate-limit';
import type { Config } from '../config/env.js';
import { TooManyRequestsError } from '../services/errors.js';

/**
 * @fastify/rate-limit's options: every route, per client address, 1,200 calls a minute (times
 * RATE_LIMIT_MULTIPLIER). Registered after the security headers, so refused requests still
 * carry them, and before auth, so a flood stays cheap.
 */
export function rateLimitOptions(config: Config): RateLimitPluginOptions {
  return {
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
  };
}
