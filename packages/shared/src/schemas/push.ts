import { z } from 'zod';
import { requiredAs } from './common.js';

/**
 * Web Push (docs/push.md): a browser's subscription, the person's push settings and what a
 * pushed message carries to the service worker.
 */

/** At most this many browsers per person get pushes; subscribing another replaces the oldest. */
export const PUSH_SUBSCRIPTIONS_PER_USER = 5;
/** An endpoint URL is at most this long (the push services' own are well under 1,000). */
export const PUSH_ENDPOINT_MAX = 2_048;

/** base64url without padding, as PushSubscription.toJSON() gives the keys. */
const base64url = (label: string, min: number, max: number) =>
  z
    .string({ error: requiredAs(`${label} is required`, `${label} must be text`) })
    .min(min, { error: `${label} is not a valid key` })
    .max(max, { error: `${label} is not a valid key` })
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, { error: `${label} is not a valid key` });

/** The browser's PushSubscription JSON, as `subscription.toJSON()` gives it. */
export const pushSubscriptionInputSchema = z.strictObject({
  endpoint: z
    .string({ error: requiredAs('endpoint is required', 'endpoint must be text') })
    .min(1, { error: 'endpoint is required' })
    .max(PUSH_ENDPOINT_MAX, { error: `endpoint must be at most ${PUSH_ENDPOINT_MAX} characters` }),
  expirationTime: z.number().nullish(),
  keys: z.strictObject(
    {
      // An uncompressed P-256 point (65 bytes: 87 characters) and a 16-byte secret (22).
      p256dh: base64url('keys.p256dh', 80, 100),
      auth: base64url('keys.auth', 16, 32),
    },
    { error: requiredAs('keys is required', 'keys must be an object') },
  ),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionInputSchema>;

export const pushUnsubscribeInputSchema = z.strictObject({
  endpoint: z
    .string({ error: requiredAs('endpoint is required', 'endpoint must be text') })
    .min(1, { error: 'endpoint is required' })
    .max(PUSH_ENDPOINT_MAX, { error: `endpoint must be at most ${PUSH_ENDPOINT_MAX} characters` }),
});
export type PushUnsubscribeInput = z.infer<typeof pushUnsubscribeInputSchema>;

/** A subscription as its owner sees it: never the keys, and the endpoint only by its host. */
export const pushSubscriptionSchema = z.object({
  id: z.string(),
  /** The push service it goes through, e.g. fcm.googleapis.com. */
  endpoint_host: z.string(),
  created_at: z.string(),
});
export type PushSubscriptionView = z.infer<typeof pushSubscriptionSchema>;

export const pushSubscriptionResponseSchema = z.object({ subscription: pushSubscriptionSchema });
export const pushSubscriptionsResponseSchema = z.object({
  subscriptions: z.array(pushSubscriptionSchema),
});

export const pushPublicKeyResponseSchema = z.object({
  /** The server's VAPID public key, base64url: PushManager.subscribe's applicationServerKey. */
  public_key: z.string(),
});

/** The lowest heat level that pushes. */
export const PUSH_LEVELS = ['WARNING', 'DANGER', 'CRITICAL'] as const;
export type PushLevel = (typeof PUSH_LEVELS)[number];

export const pushSettingsSchema = z.object({
  min_level: z.enum(PUSH_LEVELS),
  offline: z.boolean(),
  low_battery: z.boolean(),
});
export type PushSettings = z.infer<typeof pushSettingsSchema>;

export const DEFAULT_PUSH_SETTINGS = {
  min_level: 'WARNING',
  offline: false,
  low_battery: false,
} as const satisfies PushSettings;

export const pushSettingsInputSchema = z.strictObject({
  min_level: z.enum(PUSH_LEVELS, {
    error: requiredAs('min_level is required', 'min_level must be WARNING, DANGER or CRITICAL'),
  }),
  offline: z.boolean({
    error: requiredAs('offline is required', 'offline must be true or false'),
  }),
  low_battery: z.boolean({
    error: requiredAs('low_battery is required', 'low_battery must be true or false'),
  }),
});
export const pushSettingsResponseSchema = z.object({ settings: pushSettingsSchema });

/** POST /api/push/test: how many of the person's browsers the push service took it for. */
export const pushTestResponseSchema = z.object({
  success: z.boolean(),
  sent: z.number(),
  message: z.string(),
});
export type PushTestResponse = z.infer<typeof pushTestResponseSchema>;

/**
 * What a push carries (encrypted, RFC 8291) to the service worker, which shows it as a
 * notification: `title` "CRITICAL — Biscuit", `body` the one-line why, `url` the dog's
 * Monitoring card (the "Open" action and a click), `tag` one per alert so an escalation
 * replaces its opening on the lock screen.
 */
export const pushPayloadSchema = z.object({
  title: z.string(),
  body: z.string(),
  url: z.string(),
  tag: z.string(),
  level: z.enum(PUSH_LEVELS).nullable(),
  alert_id: z.string().nullable(),
  /** Shown louder and kept until dismissed (DANGER and CRITICAL). */
  urgent: z.boolean(),
  /**
   * heat: the signed token of the "Acknowledge" action (POST /api/alerts/acknowledge-link with
   * `{ token }`, no sign-in needed); null when the push offers no acknowledgement.
   */
  ack_token: z.string().nullable(),
  test: z.boolean(),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;

/** Where a pushed notification's "Find a vet" action goes. */
export const PUSH_VET_URL = '/emergency';
/** The dog's Monitoring card of a collar (the card's element id is `collar-{uuid}`). */
export const monitoringCardPath = (deviceUuid: string) =>
  `/monitoring#collar-${encodeURIComponent(deviceUuid)}`;
