import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import {
  formatTemperature,
  monitoringCardPath,
  PUSH_LEVELS,
  type PushLevel,
  type PushPayload,
  type PushSettings,
  type PushTestResponse,
  type User,
} from '@pawguard/shared';
import type { Database } from '../db/schema.js';
import type { AckLinks } from './ack-links.js';
import type { PushRepository } from '../repositories/push-repository.js';
import type { AlertNotice, AlertNoticeListener } from './alert-notices.js';
import { classifyPushFailure, type PushSender } from './push-sender.js';

/**
 * At most this many alerts pushed per person per rolling hour (each to all their browsers),
 * Danger and Critical excepted: those always push (RES-5).
 */
export const PUSHES_PER_HOUR = 30;

const MINUTE = 60;

/**
 * How a push is kept at the push service: DANGER and CRITICAL with urgency `high` for 2 hours,
 * a WARNING for 1, collar news (offline, battery) for 12, a test for 10 minutes. After that the
 * news is stale, and the worker gives a push up that it could not hand over by then.
 */
export function pushTiming(p: Pick<PushPayload, 'urgent' | 'test' | 'level'> | null): {
  urgent: boolean;
  ttlSeconds: number;
} {
  if (!p) return { urgent: false, ttlSeconds: 60 * MINUTE };
  if (p.test) return { urgent: false, ttlSeconds: 10 * MINUTE };
  if (p.urgent) return { urgent: true, ttlSeconds: 120 * MINUTE };
  return { urgent: false, ttlSeconds: (p.level ? 60 : 720) * MINUTE };
}

const rank = (level: PushLevel) => PUSH_LEVELS.indexOf(level);

/** Whether a notice pushes to a person with these settings. */
export function pushWanted(notice: AlertNotice, s: PushSettings): boolean {
  const { alert, notification } = notice;
  if (alert.type === 'heat') {
    const level = notification.level as PushLevel | null;
    return level !== null && rank(level) >= rank(s.min_level);
  }
  if (alert.type === 'offline') return s.offline;
  if (alert.type === 'low_battery') return s.low_battery;
  // "Collar off?" and "Readings refused" are quiet notes in the app.
  return false;
}

const ADVICE = {
  WARNING: 'Move them to shade and offer water.',
  urgent: 'Cool them now with cool water and call your vet.',
};

/**
 * What a notice's push says: "CRITICAL — Biscuit", one line of why (the temperature and the
 * reason that set the level) and what to do; it opens the dog's Monitoring card.
 */
export function alertPushPayload(notice: AlertNotice, ackToken: string | null): PushPayload {
  const { alert, notification, owner, reading } = notice;
  const who = alert.dog_name ?? alert.device_name ?? alert.device_id;
  const base = {
    url: monitoringCardPath(alert.device),
    tag: `alert-${alert.id}`,
    alert_id: alert.id,
    test: false,
  };
  if (alert.type === 'heat') {
    const level = (notification.level ?? alert.level ?? 'WARNING') as PushLevel;
    const urgent = level !== 'WARNING';
    const temp = reading ? formatTemperature(reading.temperature, owner.temperatureUnit) : null;
    const why = [temp, alert.reasons[0]].filter(Boolean).join(' — ');
    const again = notification.kind === 'unacknowledged';
    return {
      ...base,
      title: `${level} — ${who}${again ? ' (not yet acknowledged)' : ''}`,
      body: oneLine(
        `${again ? 'Nobody has acknowledged it yet. ' : ''}${why ? `${why}. ` : ''}${urgent ? ADVICE.urgent : ADVICE.WARNING}`,
      ),
      level,
      urgent,
      ack_token: ackToken,
    };
  }
  return {
    ...base,
    title: `${alert.type === 'offline' ? 'Collar offline' : 'Battery low'} — ${who}`,
    body: oneLine(notification.message),
    level: null,
    urgent: false,
    ack_token: null,
  };
}

/** At most 200 characters on one line: a lock screen shows two or three lines of it. */
function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/**
 * Alert pushes (docs/push.md): told of every opening and escalation in the transaction that
 * records it, like the alert mail, it queues one outbox row per browser of the person whose
 * settings want it; the push worker delivers them after the commit.
 */
export class AlertPush {
  constructor(
    private readonly d: {
      push: PushRepository;
      sender: PushSender;
      /** Signs a heat alert push's "Acknowledge" action, for the person it goes to. */
      ackLinks: AckLinks;
      log: FastifyBaseLogger;
    },
  ) {}

  readonly onNotice: AlertNoticeListener = async (trx, notice, now) => {
    const userId = notice.owner.id;
    if (!userId) return false;
    const browsers = await this.d.push.listForUser(userId, trx);
    if (browsers.length === 0) return false;
    if (!pushWanted(notice, await this.d.push.settings(userId, trx))) return false;
    const at = now.toISOString();
    // The cap counts notices (pushes to one of the person's browsers), and never holds back a
    // Danger or Critical push.
    const urgent = notice.alert.type === 'heat' && notice.notification.level !== 'WARNING';
    const hourAgo = new Date(now.getTime() - 3_600_000).toISOString();
    if (
      !urgent &&
      (await this.d.push.countQueuedSince(browsers.at(-1)!.id, hourAgo, trx)) >= PUSHES_PER_HOUR
    ) {
      this.d.log.warn(
        { userId, notificationId: notice.notification.id },
        'push not queued: this person had the hourly number of pushes (the notification and mail still tell them)',
      );
      return false;
    }
    // Acknowledge where it matters: a Danger or Critical alert (a Warning's push offers Open
    // and Find a vet, what a browser's two actions can show).
    const ackToken = urgent
      ? await this.d.ackLinks.token(
          { alertId: notice.alert.id, userId, level: notice.alert.level },
          now,
        )
      : null;
    const payload = alertPushPayload(notice, ackToken);
    await this.queue(trx, notice.notification.id, browsers, payload, at);
    return true;
  };

  private async queue(
    trx: Transaction<Database>,
    key: string,
    browsers: { id: string }[],
    payload: PushPayload,
    at: string,
  ) {
    const json = JSON.stringify(payload);
    for (const b of browsers)
      await this.d.push.enqueue(
        {
          idempotencyKey: `push-${key}-${b.id}`,
          subscriptionId: b.id,
          title: payload.title,
          payload: json,
        },
        at,
        trx,
      );
  }

  /**
   * A test push to each of the person's browsers, sent at once (not through the outbox), each
   * within the sender's timeout. A browser its push service no longer knows is deleted.
   */
  async sendTest(user: User): Promise<PushTestResponse> {
    const browsers = await this.d.push.listForUser(user.id);
    if (browsers.length === 0)
      return {
        success: false,
        sent: 0,
        message: 'Push notifications are not on for any of your browsers. Turn them on first.',
      };
    const payload: PushPayload = {
      title: 'Test — PawGuard',
      body: 'Push notifications work on this device. Heat alerts will reach you here.',
      url: '/notifications',
      tag: 'test',
      level: null,
      alert_id: null,
      urgent: false,
      ack_token: null,
      test: true,
    };
    const results = await Promise.allSettled(
      browsers.map((b) =>
        this.d.sender.send(
          { endpoint: b.endpoint, keys: { p256dh: b.p256dh, auth: b.auth } },
          { payload: JSON.stringify(payload), ...pushTiming(payload) },
        ),
      ),
    );
    const gone = browsers.filter(
      (_, i) =>
        results[i]!.status === 'rejected' &&
        classifyPushFailure((results[i] as PromiseRejectedResult).reason) === 'gone',
    );
    if (gone.length) await this.d.push.remove(gone.map((b) => b.id));
    const sent = results.filter((r) => r.status === 'fulfilled').length;
    for (const r of results)
      if (r.status === 'rejected')
        this.d.log.warn(
          { err: (r.reason as Error)?.message, event: 'push.test_failed' },
          'test push not sent',
        );
    const n = browsers.length;
    if (sent === n)
      return {
        success: true,
        sent,
        message:
          n === 1 ? 'Test push sent to your browser.' : `Test push sent to your ${n} browsers.`,
      };
    if (sent > 0)
      return {
        success: true,
        sent,
        message: `Test push sent to ${sent} of your ${n} browsers; the others could not be reached.`,
      };
    return {
      success: false,
      sent: 0,
      message:
        gone.length === n
          ? 'Your browser no longer takes pushes from PawGuard. Turn push notifications on again.'
          : 'The push service could not be reached. Please try again in a few minutes.',
    };
  }
}
