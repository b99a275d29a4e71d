import { z } from 'zod';
import { pageQueryShape } from './common.js';

/**
 * An alert is a condition PawGuard detected on a device (DESIGN §3 "Alerts and
 * notifications"). A device has at most one open alert of each type at a time.
 *
 * - heat:        the device's status rose above SAFE; it escalates WARNING → DANGER → CRITICAL,
 *                never de-escalates while open, and resolves when the device is SAFE again
 *                (past the 1 °F hysteresis) or when the owner resolves it.
 * - offline:     an active collar was silent for 10 minutes; resolved at its next reading.
 * - low_battery: the battery fell below 20 %; once per discharge, re-armed at ≥ 30 %.
 */
/**
 * `collar_off`: the collar seems not to be on its dog (docs/heat-risk.md, "Collar off"), a
 * data-quality note without a level: told in the app once per off spell in the day, never
 * mailed, and resolved when the collar is back on.
 */
/**
 * `over_budget`: PawGuard refused a collar's readings, because it (or its owner's account)
 * sent far more than a collar needs, or the account keeps as many readings as its quota
 * allows (docs/operations.md, "Ingest budgets"). Told in the app at most once a day per
 * collar, never mailed; the owner resolves it. `reasons` holds which of the two it was.
 */
export const ALERT_TYPES = ['heat', 'offline', 'low_battery', 'collar_off', 'over_budget'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];
export const alertTypeSchema = z.enum(ALERT_TYPES);

/** A heat alert's level: the vitals statuses above SAFE, lowest first. */
export const ALERT_LEVELS = ['WARNING', 'DANGER', 'CRITICAL'] as const;
export type AlertLevel = (typeof ALERT_LEVELS)[number];
export const alertLevelSchema = z.enum(ALERT_LEVELS);

/** How an alert ended: the condition cleared (a reading), or its owner resolved it. */
export const ALERT_RESOLUTIONS = ['condition', 'owner'] as const;

export const alertSchema = z.object({
  id: z.string(),
  /** The device's id (UUID). */
  device: z.string(),
  /** The collar's Device ID (PET-XXXX). */
  device_id: z.string(),
  device_name: z.string().nullable(),
  dog_id: z.string().nullable(),
  dog_name: z.string().nullable(),
  type: alertTypeSchema,
  /** heat: the highest level reached while open; offline and low_battery: null. */
  level: alertLevelSchema.nullable(),
  /** The spec's flag: resolved or not. */
  resolved: z.boolean(),
  /** When the alert opened (ISO-8601 UTC, the server's time). */
  opened_at: z.string(),
  /** The time of the reading that opened it (ISO-8601 UTC); offline: the last reading's. */
  reading_at: z.string().nullable(),
  /** When it last rose a level (heat), or null. */
  escalated_at: z.string().nullable(),
  resolved_at: z.string().nullable(),
  resolved_by: z.enum(ALERT_RESOLUTIONS).nullable(),
  /**
   * The time of the reading that resolved it (resolved by the condition; ISO-8601 UTC, the
   * collar's time), else null. With reading_at, when the condition began and ended by the
   * collar's clock: for a backlog uploaded late, well before opened_at and resolved_at. An
   * offline alert: the first reading after the silence, or null when the collar came back with
   * older readings only.
   */
  resolved_reading_at: z.string().nullable(),
  /** heat: the highest temperature (°C) and heat index (°F) seen while open. */
  peak_temperature_celsius: z.number().nullable(),
  peak_heat_index_f: z.number().nullable(),
  /** low_battery: the battery (%) that opened it. */
  battery_level: z.number().nullable(),
  /**
   * heat: why PawGuard is worried, in plain words, as of the reading that opened or last
   * escalated it (the heat-risk model's reasons); empty for other types.
   */
  reasons: z.array(z.string()),
  /**
   * heat: when its owner acknowledged it (decision 0037), else null. It stays open and watched;
   * its notifications are read; an escalation notifies as always and clears this.
   */
  acknowledged_at: z.string().nullable(),
  /** heat: the name of whoever acknowledged it, with acknowledged_at; else null. */
  acknowledged_by_name: z.string().nullable(),
});
export type Alert = z.infer<typeof alertSchema>;

/**
 * POST /api/alerts/acknowledge-link: acknowledges the heat alert a signed link names (from an
 * alert mail or a push's "Acknowledge" action), for the person it was made for, without a
 * sign-in. The token is the link's secret part.
 */
export const acknowledgeLinkInputSchema = z.strictObject({
  token: z
    .string({ error: 'token is required' })
    .min(1, { error: 'token is required' })
    .max(2_000, { error: 'This acknowledge link is not valid.' }),
});
export type AcknowledgeLinkInput = z.infer<typeof acknowledgeLinkInputSchema>;

/** The web page an acknowledge link opens; the token follows in the fragment (never logged). */
export const ACKNOWLEDGE_PAGE = '/acknowledge';

/**
 * How long a DANGER or CRITICAL heat alert may go unacknowledged before it is sent again to
 * everyone, "not yet acknowledged" (minutes, per pet; docs/escalation.md).
 */
export const DEFAULT_ESCALATION = { danger_minutes: 15, critical_minutes: 5 } as const;
export const ESCALATION_MINUTES_MIN = 1;
export const ESCALATION_MINUTES_MAX = 120;
const escalationMinutes = (label: string) =>
  z
    .number({ error: `${label} must be a whole number of minutes` })
    .int({ error: `${label} must be a whole number of minutes` })
    .min(ESCALATION_MINUTES_MIN, {
      error: `${label} must be from ${ESCALATION_MINUTES_MIN} to ${ESCALATION_MINUTES_MAX} minutes`,
    })
    .max(ESCALATION_MINUTES_MAX, {
      error: `${label} must be from ${ESCALATION_MINUTES_MIN} to ${ESCALATION_MINUTES_MAX} minutes`,
    });
export const escalationSchema = z.object({
  danger_minutes: z.number(),
  critical_minutes: z.number(),
});
export type Escalation = z.infer<typeof escalationSchema>;
export const escalationInputSchema = z.strictObject({
  danger_minutes: escalationMinutes('danger_minutes'),
  critical_minutes: escalationMinutes('critical_minutes'),
});
export const escalationResponseSchema = z.object({ escalation: escalationSchema });

const resolvedFilter = z
  .enum(['true', 'false'], { error: 'resolved must be true or false' })
  .transform((v) => v === 'true')
  .optional();

/**
 * GET /api/devices/{id}/alerts?resolved=true|false and GET /api/alerts (the caller's devices;
 * an admin's: every device): newest first, `limit` ≤ 100 and `offset`, `total` beside them.
 */
export const alertsQuerySchema = z.strictObject({ resolved: resolvedFilter, ...pageQueryShape });
export type AlertsQuery = z.infer<typeof alertsQuerySchema>;
export const alertsResponseSchema = z.object({ alerts: z.array(alertSchema), total: z.number() });
export const alertResponseSchema = z.object({ alert: alertSchema });

/**
 * POST /api/devices/{id}/alerts/{alertId}/resolve: 200 with the alert (already resolved: as it
 * is). POST …/acknowledge: 200 with the alert (already acknowledged: as it is).
 */
export const alertParamsSchema = z.strictObject({
  id: z.uuid({ error: 'id must be a valid id' }),
  alertId: z.uuid({ error: 'alertId must be a valid id' }),
});
