import { z } from 'zod';
import { alertSchema } from './alert.js';
import { notificationSchema } from './notification.js';
import { deviceVitalsPatchSchema, readingSchema } from './reading.js';

/** POST /api/stream/ticket: a single-use ticket, valid for 60 s, for GET /api/stream?ticket=… */
export const STREAM_TICKET_TTL_MS = 60_000;
export const streamTicketResponseSchema = z.object({ ticket: z.string() });
export const streamQuerySchema = z.strictObject({
  ticket: z
    .string({ error: 'ticket is required' })
    .min(1, { error: 'ticket is required' })
    .max(200, { error: 'ticket is not valid' }),
  /** For a new EventSource after a fresh ticket: the id of the last event it received. */
  last_event_id: z.string().max(100).optional(),
});

/**
 * Events on the live stream (Server-Sent Events). The SSE `event:` name is the `type`; `data:`
 * is this object as JSON; `id:` is a monotonic number the browser sends back as
 * Last-Event-ID when it reconnects.
 *
 * - reading: a collar's reading was stored; `device` is what it changed on the device.
 * - device:  a device was changed otherwise (assigned, moved, released, removed, went offline);
 *            the screens refetch their device lists.
 * - alert:   an alert opened, escalated or resolved (the alert as it is now); to the
 *            device's owner and to admins. Acknowledged: to the owner only; its notifications
 *            were marked read, so the bell counts afresh.
 * - notification: a notification was created for the person this stream belongs to (the
 *            device's owner only); the bell adds it and its unread count goes up.
 * - resync:  events were missed beyond the replay window; refetch everything.
 */
export const readingEventSchema = z.object({
  type: z.literal('reading'),
  /** The device's id (UUID). */
  device: z.string(),
  reading: readingSchema,
  patch: deviceVitalsPatchSchema,
});
export const deviceEventSchema = z.object({
  type: z.literal('device'),
  device: z.string(),
  change: z.enum(['updated', 'removed']),
});
export const alertEventSchema = z.object({ type: z.literal('alert'), alert: alertSchema });
export const notificationEventSchema = z.object({
  type: z.literal('notification'),
  notification: notificationSchema,
});
export const resyncEventSchema = z.object({ type: z.literal('resync') });
export const streamEventSchema = z.discriminatedUnion('type', [
  readingEventSchema,
  deviceEventSchema,
  alertEventSchema,
  notificationEventSchema,
  resyncEventSchema,
]);
export type ReadingEvent = z.infer<typeof readingEventSchema>;
export type DeviceEvent = z.infer<typeof deviceEventSchema>;
export type AlertEvent = z.infer<typeof alertEventSchema>;
export type NotificationEvent = z.infer<typeof notificationEventSchema>;
export type StreamEvent = z.infer<typeof streamEventSchema>;
