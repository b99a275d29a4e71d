import { z } from 'zod';

export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  database: z.enum(['sqlite', 'postgres']),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/** GET /api/health/live: the process answers (an orchestrator restarts it when it does not). */
export const livenessResponseSchema = z.object({ status: z.literal('ok') });
export type LivenessResponse = z.infer<typeof livenessResponseSchema>;

/** One readiness check: passed, failed, or not part of this configuration. */
export const readinessCheckSchema = z.enum(['ok', 'failed', 'not configured']);

/**
 * GET /api/health/ready: whether this instance can take traffic now. 503 names in `error`
 * the checks that failed.
 */
export const readinessResponseSchema = z.object({
  status: z.enum(['ready', 'not ready']),
  checks: z.object({
    /** The database answers and takes writes. */
    database: readinessCheckSchema,
    /** Redis answers (REDIS_URL). */
    redis: readinessCheckSchema,
    /** The collars' MQTT port is listening (MQTT_PORT). */
    mqtt: readinessCheckSchema,
    /** DATA_DIR has at least READY_MIN_FREE_MB free. */
    disk: readinessCheckSchema,
  }),
  error: z.string().optional(),
});
export type ReadinessResponse = z.infer<typeof readinessResponseSchema>;
