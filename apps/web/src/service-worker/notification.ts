import { alertResponseSchema, PUSH_VET_URL, pushPayloadSchema } from '@pawguard/shared';

/** The app icons a notification shows (public/icons). */
export const NOTIFICATION_ICON = '/icons/pwa-192.png';
/** Android's small monochrome icon in the status bar. */
export const NOTIFICATION_BADGE = '/icons/badge-96.png';

/**
 * What the service worker keeps on a notification, for a click to act on: the page it opens,
 * and for a heat alert the signed token its "Acknowledge" action sends.
 */
export type NotificationData = { url: string; ackToken?: string };

export type NotificationAction = 'open' | 'vet' | 'ack';

/**
 * NotificationOptions as service workers have them: the DOM's own type lacks `actions` and
 * `renotify`, which only persistent (service-worker) notifications take.
 */
export type PushNotificationOptions = NotificationOptions & {
  actions?: { action: NotificationAction; title: string }[];
  renotify?: boolean;
  data: NotificationData;
};

export type ShownNotification = { title: string; options: PushNotificationOptions };

const OPEN = { action: 'open', title: 'Open' } as const;
const VET = { action: 'vet', title: 'Find a vet' } as const;
const ACKNOWLEDGE = { action: 'ack', title: 'Acknowledge' } as const;

/**
 * How many actions a browser shows when it does not say (Notification.maxActions): two, as
 * Chrome on a computer does.
 */
export const DEFAULT_MAX_ACTIONS = 2;

/**
 * A heat alert's actions, in the order the browser shows them; it drops those beyond
 * `maxActions`. With room for three: Open, Find a vet, Acknowledge. With less, Acknowledge
 * comes first, beside Find a vet: a tap on the notification itself still opens the dog's card.
 */
export function heatActions(
  canAcknowledge: boolean,
  maxActions: number,
): { action: NotificationAction; title: string }[] {
  if (!canAcknowledge) return [OPEN, VET];
  return maxActions >= 3 ? [OPEN, VET, ACKNOWLEDGE] : [ACKNOWLEDGE, VET];
}

/**
 * Shown when a push cannot be read. A push must always show something (the browser shows its
 * own "updated in the background" otherwise), and it is most likely an alert.
 */
const UNREADABLE = {
  title: 'PawGuard',
  body: 'There is news about your dogs. Open PawGuard to see it.',
};

/** Only a path on this site: a notification never leads anywhere else. */
function sitePath(url: unknown): string {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//') ? url : '/';
}

/**
 * The notification a push becomes (docs/push.md): the title names the level and the dog
 * ("CRITICAL — Biscuit"), the body is the one-line why. One tag per alert, so an escalation
 * replaces its opening and rings again; an urgent one stays until it is dismissed. A heat alert
 * offers "Find a vet" beside "Open" (the dog's Monitoring card), and "Acknowledge" when the push
 * carries its token (heatActions: which of them fit).
 */
export function notificationFromPush(
  data: unknown,
  maxActions: number = DEFAULT_MAX_ACTIONS,
): ShownNotification {
  const parsed = pushPayloadSchema.safeParse(data);
  if (!parsed.success) {
    return {
      title: UNREADABLE.title,
      options: {
        body: UNREADABLE.body,
        icon: NOTIFICATION_ICON,
        badge: NOTIFICATION_BADGE,
        data: { url: '/' },
        actions: [OPEN],
      },
    };
  }
  const push = parsed.data;
  return {
    title: push.title,
    options: {
      body: push.body,
      icon: NOTIFICATION_ICON,
      badge: NOTIFICATION_BADGE,
      // A browser refuses renotify without a tag.
      ...(push.tag ? { tag: push.tag, renotify: true } : {}),
      requireInteraction: push.urgent,
      data: {
        url: sitePath(push.url),
        ...(push.level && push.ack_token ? { ackToken: push.ack_token } : {}),
      },
      actions: push.level ? heatActions(Boolean(push.ack_token), maxActions) : [OPEN],
    },
  };
}

/** A push's data as the browser hands it over: JSON, or anything else. */
export function readPushData(data: { json(): unknown } | null | undefined): unknown {
  if (!data) return null;
  try {
    return data.json();
  } catch {
    return null;
  }
}

/** Where a click on a notification (or one of its actions) leads: a path on this site. */
export function clickTarget(action: string, data: unknown): string {
  if (action === 'vet') return PUSH_VET_URL;
  return sitePath(data && typeof data === 'object' ? (data as { url?: unknown }).url : undefined);
}

/** Where the "Acknowledge" action sends its token: the worker talks to its own site only. */
export const ACKNOWLEDGE_LINK_PATH = '/api/alerts/acknowledge-link';
/** How long the "Acknowledge" action waits for the server before saying it did not get through. */
export const ACKNOWLEDGE_TIMEOUT_MS = 10_000;

const UNREACHABLE = 'PawGuard could not be reached. Open PawGuard to acknowledge the alert.';
const NO_TOKEN = 'This notification cannot acknowledge the alert. Open PawGuard to acknowledge it.';

/** The `{ error }` text of a refused call, if it has one. */
async function errorText(response: Response): Promise<string | null> {
  try {
    const body = (await response.json()) as { error?: unknown };
    return typeof body?.error === 'string' && body.error.trim() !== '' ? body.error : null;
  } catch {
    return null;
  }
}

/**
 * The "Acknowledge" action: sends the notification's token to the server (no sign-in: the token
 * is the credential) and answers the notification to show in its place, under the same tag.
 * Acknowledged: a quiet "Acknowledged — Biscuit" that leads to the dog's card. Not: the server's
 * words (or that it could not be reached), still leading to the card, where Acknowledge is one
 * tap too; it stays until dismissed unless the alert has ended.
 */
export async function acknowledgeFromNotification(
  data: unknown,
  tag: string,
  send: typeof fetch = fetch,
): Promise<ShownNotification> {
  const stored = (data && typeof data === 'object' ? data : {}) as Partial<NotificationData>;
  const url = sitePath(stored.url);
  const base = {
    icon: NOTIFICATION_ICON,
    badge: NOTIFICATION_BADGE,
    ...(tag ? { tag } : {}),
    renotify: false,
    data: { url },
  };
  const notAcknowledged = (body: string, stays = true): ShownNotification => ({
    title: 'Not acknowledged',
    options: { ...base, body, requireInteraction: stays, actions: [OPEN] },
  });

  const token = typeof stored.ackToken === 'string' ? stored.ackToken : '';
  if (!token) return notAcknowledged(NO_TOKEN);
  let response: Response;
  try {
    response = await send(ACKNOWLEDGE_LINK_PATH, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ token }),
      credentials: 'omit',
      signal: AbortSignal.timeout(ACKNOWLEDGE_TIMEOUT_MS),
    });
  } catch {
    return notAcknowledged(UNREACHABLE);
  }
  if (!response.ok) {
    // A resolved alert needs nobody any more: that notification may go by itself. One raised
    // since the push (also 409) stays until seen.
    const text = (await errorText(response)) ?? UNREACHABLE;
    return notAcknowledged(text, response.status !== 409 || /raised/i.test(text));
  }
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // Answered as acknowledged all the same (2xx); the dog is named below without it.
  }
  const parsed = alertResponseSchema.safeParse(body);
  const alert = parsed.success ? parsed.data.alert : null;
  const who = alert ? (alert.dog_name ?? alert.device_name ?? alert.device_id) : null;
  return {
    title: who ? `Acknowledged — ${who}` : 'Acknowledged',
    options: {
      ...base,
      body: 'PawGuard keeps watching.',
      requireInteraction: false,
      silent: true,
    },
  };
}
