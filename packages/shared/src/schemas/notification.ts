import { z } from 'zod';
import {
  hasNoNul,
  isSingleLine,
  LIMITS,
  NUL_MESSAGE,
  requiredAs,
  SINGLE_LINE_MESSAGE,
} from './common.js';
import { alertLevelSchema, alertTypeSchema } from './alert.js';

/**
 * A notification is what a person receives about an alert: one for each opening and each
 * escalation, for the device's owner, recorded whatever the e-mail settings (the mail is a
 * separate outbox row), and one when a DANGER or CRITICAL heat alert went unacknowledged for
 * its pet's escalation minutes (`unacknowledged`: sent again, "not yet acknowledged"). Read
 * state: unread ↔ read.
 */
export const NOTIFICATION_KINDS = ['opened', 'escalated', 'unacknowledged'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const notificationSchema = z.object({
  id: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  alert_id: z.string(),
  alert_type: alertTypeSchema,
  /** heat: the level it opened or escalated to; otherwise null. */
  level: alertLevelSchema.nullable(),
  /** The device's id (UUID), for a link to its page. */
  device: z.string(),
  device_id: z.string(),
  dog_name: z.string().nullable(),
  /** One line, e.g. 'Rex is in danger: 41.2 °C / 106.2 °F'. */
  title: z.string(),
  /** What happened and what to do, in a sentence or two. */
  message: z.string(),
  read: z.boolean(),
  created_at: z.string(),
  /**
   * heat: whether its alert is acknowledged now, when and by whom (the alert's, as it stands:
   * the bell says who is on it); else null.
   */
  acknowledged_at: z.string().nullable(),
  acknowledged_by_name: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** The bell shows the latest 20; the list answers at most 100. */
export const NOTIFICATIONS_BELL_SIZE = 20;
const LIMIT_MESSAGE = `limit must be a number from 1 to ${LIMITS.pageSize}`;
/** GET /api/notifications?limit=…: newest first. */
export const notificationsQuerySchema = z.strictObject({
  limit: z.coerce
    .number({ error: LIMIT_MESSAGE })
    .int({ error: LIMIT_MESSAGE })
    .min(1, { error: LIMIT_MESSAGE })
    .max(LIMITS.pageSize, { error: LIMIT_MESSAGE })
    .default(NOTIFICATIONS_BELL_SIZE),
});
export const notificationsResponseSchema = z.object({
  notifications: z.array(notificationSchema),
});
export const notificationResponseSchema = z.object({ notification: notificationSchema });
/** GET /api/notifications/unread-count */
export const unreadCountResponseSchema = z.object({ count: z.number() });

/** POST /api/notifications/test-email: a sample alert for petName at temperature (°F). */
export const TEST_EMAIL_DEFAULTS = { petName: 'Test Pet', temperature: 90 } as const;
export const testEmailInputSchema = z.strictObject({
  petName: z
    .string({ error: requiredAs('petName is required', 'petName must be text') })
    .trim()
    .min(1, { error: 'petName is required' })
    .max(LIMITS.name, { error: `petName must be at most ${LIMITS.name} characters` })
    .refine(hasNoNul, { error: `petName ${NUL_MESSAGE}` })
    .refine(isSingleLine, { error: `petName ${SINGLE_LINE_MESSAGE}` }),
  temperature: z
    .number({ error: requiredAs('temperature is required', 'temperature must be a number') })
    .min(-40, { error: 'temperature must be between -40 and 200 °F' })
    .max(200, { error: 'temperature must be between -40 and 200 °F' }),
});
export type TestEmailInput = z.infer<typeof testEmailInputSchema>;
/**
 * The spec's `{ success, message }`, and `delivered`: whether a mail server took the mail (false
 * when the server has no mail service and kept it as a file, or the send failed).
 */
export const testEmailResponseSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  delivered: z.boolean().optional(),
});
export type TestEmailResponse = z.infer<typeof testEmailResponseSchema>;
