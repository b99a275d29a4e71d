import { PUSH_VET_URL, pushPayloadSchema } from '@pawguard/shared';

/** The app icons a notification shows (public/icons). */
export const NOTIFICATION_ICON = '/icons/pwa-192.png';
/** Android's small monochrome icon in the status bar. */
export const NOTIFICATION_BADGE = '/icons/badge-96.png';

/** What the service worker keeps on a notification, for a click to act on. */
export type NotificationData = { url: string };

/**
 * NotificationOptions as service workers have them: the DOM's own type lacks `actions` and
 * `renotify`, which only persistent (service-worker) notifications take.
 */
export type PushNotificationOptions = NotificationOptions & {
  actions?: { action: NotificationAction; title: string }[];
  renotify?: boolean;
  data: NotificationData;
};

export type NotificationAction = 'open' | 'vet';

export const NOTIFICATION_ACTIONS: { action: NotificationAction; title: string }[] = [
  { action: 'open', title: 'Open' },
  { action: 'vet', title: 'Find a vet' },
];

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
 * offers "Find a vet" beside "Open" (the dog's Monitoring card).
 */
export function notificationFromPush(data: unknown): {
  title: string;
  options: PushNotificationOptions;
} {
  const parsed = pushPayloadSchema.safeParse(data);
  if (!parsed.success) {
    return {
      title: UNREADABLE.title,
      options: {
        body: UNREADABLE.body,
        icon: NOTIFICATION_ICON,
        badge: NOTIFICATION_BADGE,
        data: { url: '/' },
        actions: NOTIFICATION_ACTIONS.filter((a) => a.action === 'open'),
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
      data: { url: sitePath(push.url) },
      actions: push.level
        ? NOTIFICATION_ACTIONS
        : NOTIFICATION_ACTIONS.filter((a) => a.action === 'open'),
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
