import { z } from 'zod';
import { VITALS_STATUSES } from '../domain/vitals-status.js';

/** At most this many days back (the collar's own memory is 7; the store keeps more). */
export const BACKTEST_MAX_DAYS = 30;

/** GET /api/devices/{id}/risk/backtest?days=7 */
export const backtestQuerySchema = z.strictObject({
  days: z.coerce
    .number({ error: 'days must be a number' })
    .int({ error: 'days must be a whole number' })
    .min(1, { error: `days must be between 1 and ${BACKTEST_MAX_DAYS}` })
    .max(BACKTEST_MAX_DAYS, { error: `days must be between 1 and ${BACKTEST_MAX_DAYS}` })
    .default(7),
});
export type BacktestQuery = z.infer<typeof backtestQuerySchema>;

const sideSchema = z.object({
  /** Heat alerts that would have opened (each rise above SAFE). */
  alerts: z.number().int(),
  /** Minutes above SAFE (a silence over 10 minutes counts as 10). */
  minutes_elevated: z.number().int(),
  highest: z.enum(VITALS_STATUSES),
});

/**
 * How often the plain thresholds and the thresholds with the heat-risk model beside them
 * (the higher of the two, as the heat alert follows) would have alerted over the last days.
 */
export const backtestResponseSchema = z.object({
  days: z.number().int(),
  from: z.string(),
  to: z.string(),
  readings: z.number().int(),
  thresholds: sideSchema,
  model: sideSchema,
  /** The model's alerts during which the thresholds stayed SAFE: what it adds. */
  model_only_alerts: z.number().int(),
});
export type BacktestResponse = z.infer<typeof backtestResponseSchema>;
