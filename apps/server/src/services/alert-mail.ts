import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import {
  ALERT_MAIL_COOLDOWN_MS,
  DEFAULT_PREFERENCES,
  dailyWindowEnd,
  hourlyWindowEnd,
  mailCooldownAllows,
  fahrenheitToCelsius,
  heatIndexF,
  vitalsStatus,
  type TestEmailInput,
  type TestEmailResponse,
  type User,
  temperatureUnitOf,
} from '@pawguard/shared';
import type { Database } from '../db/schema.js';
import type { AlertMailRepository } from '../repositories/alert-mail-repository.js';
import type { OutboxRepository } from '../repositories/outbox-repository.js';
import type { PreferencesRepository } from '../repositories/preferences-repository.js';
import type { NotificationsRepository } from '../repositories/notifications-repository.js';
import type { UsersRepository } from '../repositories/users-repository.js';
import type { AlertNotice, AlertNoticeListener } from './alert-notices.js';
import { alertMail, digestMail, type MailLinks } from './alert-mail-templates.js';
import type { MailTransport } from './mail-transport.js';
import type { Clock } from './clock.js';
import type { MailKick } from './commit-effects.js';
import type { AckLinks } from './ack-links.js';

/**
 * At most this many immediate alert mails per person per rolling hour (RES-5); the rest wait
 * for one summary at the next hour. Ten covers a bad hour for a household with several dogs
 * (an opening and two escalations each) while a storm of alerts stays a handful of mails.
 */
export const ALERT_MAILS_PER_HOUR = 10;
/** The test e-mail is sent at once and given up after this long (DESIGN §3). */
export const TEST_EMAIL_TIMEOUT_MS = 10_000;
const HOUR_MS = 60 * 60 * 1000;
/** The digest scheduler looks this often for a window that has ended. */
const DIGEST_TICK_MS = 60_000;

/**
 * Alert e-mail (DESIGN §3): every mail an outbox row written in the transaction of the event
 * it reports, so none is lost or doubled (the outbox's idempotency key and atomic claims).
 *
 * - immediate: one mail per opening or escalation; an opening within 15 minutes of the
 *   device's last mail sends none (the notification is still recorded); past the hourly cap
 *   the notification waits for a summary at the next hour.
 * - hourly / daily: the notification waits for the digest of its window, sent by the
 *   scheduler at minute 0 / 08:00 in the owner's time zone (UTC when unknown), one per
 *   person and window, none when empty.
 * - e-mail off: nothing (the notification centre still records it).
 */
export class AlertMail {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly d: {
      db: Kysely<Database>;
      /** Signs the "Acknowledge" link of a heat alert's mail. */
      ackLinks: AckLinks;
      /** The alert mail's own queries (recent mails of a collar, the hourly cap, digests). */
      mails: AlertMailRepository;
      outbox: OutboxRepository;
      preferences: PreferencesRepository;
      notifications: NotificationsRepository;
      users: UsersRepository;
      transport: MailTransport;
      links: MailLinks;
      clock: Clock;
      log: FastifyBaseLogger;
      /** The outbox worker, woken after a digest was queued. */
      worker?: MailKick;
    },
  ) {}

  readonly onNotice: AlertNoticeListener = async (trx, notice, now) => {
    const { owner, alert, notification } = notice;
    // "Collar off?" and "Readings refused" are quiet notes in the app, never a mail.
    if (alert.type === 'collar_off' || alert.type === 'over_budget' || !owner.email) return false;
    const prefs = (await this.d.preferences.find(owner.id, trx)) ?? DEFAULT_PREFERENCES;
    if (!prefs.email_notifications_enabled) return false;
    const at = now.toISOString();
    // Held for a digest: queued when its window ends (sendDigests), not now.
    if (prefs.email_frequency !== 'immediate') return this.hold(trx, notice, at);

    const news = { type: notification.alert_type, level: notification.level };
    if (notification.kind === 'opened') {
      const since = new Date(now.getTime() - ALERT_MAIL_COOLDOWN_MS).toISOString();
      // This owner's mails only: a collar that changed hands starts afresh.
      const recent = await this.d.mails.recentForDevice(owner.id, alert.device, since, trx);
      if (!mailCooldownAllows({ ...news, kind: notification.kind }, recent)) return false;
    }
    const hourAgo = new Date(now.getTime() - HOUR_MS).toISOString();
    const sent = await this.d.mails.countSince(owner.id, hourAgo, trx);
    if (sent >= ALERT_MAILS_PER_HOUR) return this.hold(trx, notice, at);

    await this.d.mails.recordSent(
      {
        id: randomUUID(),
        user_id: owner.id,
        device_uuid: alert.device,
        alert_type: news.type,
        level: news.level,
        created_at: at,
      },
      trx,
    );
    // A heat alert's mail acknowledges it in one tap, for this person.
    const acknowledgeUrl =
      alert.type === 'heat'
        ? await this.d.ackLinks.url(
            { alertId: alert.id, userId: owner.id, level: alert.level },
            now,
          )
        : undefined;
    await this.d.outbox.enqueue(
      alertMail(
        notice,
        { ...this.d.links, ...(acknowledgeUrl ? { acknowledgeUrl } : {}) },
        `alert-${notification.id}`,
      ),
      at,
      trx,
    );
    return true;
  };

  /**
   * Keeps a notification for a digest (its person's window, or the summary of the held):
   * nothing is queued now, so false.
   */
  private async hold(trx: Transaction<Database>, notice: AlertNotice, at: string): Promise<false> {
    await this.d.mails.hold(
      { notification_id: notice.notification.id, user_id: notice.owner.id, created_at: at },
      trx,
    );
    return false;
  }

  /**
   * Sends the digests of windows that have ended: hourly ones (and the summaries of mail held
   * back by the cap) for the window ending at the last minute 0, daily ones for the window
   * ending at the last 08:00 on each owner's clock. Restart-safe: what is waiting is in the database, and the
   * entries a digest reports are taken in the transaction that queues it. Answers how many
   * were queued.
   */
  async sendDigests(): Promise<number> {
    const now = this.d.clock.now();
    const hourly = hourlyWindowEnd(now).toISOString();
    // Up to now, not the hour: a daily window may end at :30 or :45 (India, Nepal).
    const waiting = await this.d.mails.waiting(now.toISOString());
    let queued = 0;
    for (const w of waiting) {
      const frequency = w.email_frequency ?? DEFAULT_PREFERENCES.email_frequency;
      const enabled =
        w.email_notifications_enabled === null
          ? DEFAULT_PREFERENCES.email_notifications_enabled
          : Boolean(w.email_notifications_enabled);
      // A daily reader's entries wait for 08:00 on their own clock (UTC when their time zone
      // is unknown); held-back mail of an immediate reader and an hourly reader's entries go
      // at the hour.
      const windowEnd =
        frequency === 'daily' ? dailyWindowEnd(now, w.time_zone).toISOString() : hourly;
      if (w.oldest === null || w.oldest > windowEnd) continue; // nothing of a window that ended
      const kind = frequency === 'immediate' ? 'held' : frequency;
      if (await this.digestFor(w.user_id, kind, windowEnd, enabled)) queued++;
    }
    if (queued) this.d.worker?.kick();
    return queued;
  }

  private async digestFor(
    userId: string,
    kind: 'hourly' | 'daily' | 'held',
    windowEnd: string,
    enabled: boolean,
  ): Promise<boolean> {
    // Unique to this take, not just to the window: an entry of the window that commits after
    // its digest was queued (a slow commit, or another instance's clock) goes in a digest of
    // its own, never into a key the outbox has seen and would drop.
    const key = `digest-${userId}-${kind}-${windowEnd}-${randomUUID()}`;
    return this.d.db.transaction().execute(async (trx) => {
      // Taken in one UPDATE, in the transaction that queues the digest: of two instances at
      // once each entry goes to one digest, and a digest is queued once.
      const taken = await this.d.mails.take(userId, windowEnd, enabled ? key : 'off', trx);
      if (!enabled || taken.length === 0) return false;
      const notifications = await this.d.notifications.byIds(taken, trx);
      if (notifications.length === 0) return false;
      const owner = await this.d.users.findById(userId, trx);
      if (!owner) return false;
      await this.d.outbox.enqueue(
        digestMail({
          owner: { email: owner.email, name: owner.name, timeZone: owner.time_zone },
          frequency: kind,
          windowEnd,
          notifications,
          links: this.d.links,
          idempotencyKey: key,
        }),
        this.d.clock.now().toISOString(),
        trx,
      );
      return true;
    });
  }

  /**
   * The test e-mail: a sample alert for `petName` at `temperature` °F, sent at once (not
   * through the outbox) with a 10 s limit. Without SMTP_URL it is written as an .eml file.
   */
  async sendTest(user: User, input: TestEmailInput): Promise<TestEmailResponse> {
    const now = this.d.clock.now();
    const prefs = (await this.d.preferences.find(user.id)) ?? DEFAULT_PREFERENCES;
    const celsius = fahrenheitToCelsius(input.temperature);
    const humidity = 50;
    const thresholds = {
      warningF: prefs.temperature_threshold,
      criticalF: prefs.critical_temperature_threshold,
    };
    const status = vitalsStatus({ temperature: celsius, humidity }, thresholds);
    const level = status === 'SAFE' ? 'WARNING' : status;
    const at = now.toISOString();
    const notice: AlertNotice = {
      owner: {
        id: user.id,
        email: user.email,
        name: user.name,
        timeZone: user.time_zone,
        temperatureUnit: temperatureUnitOf(user.temperature_unit),
      },
      reading: {
        temperature: celsius,
        humidity,
        heat_index_f: heatIndexF(input.temperature, humidity),
        battery: null,
        timestamp: at,
      },
      alert: {
        id: 'test',
        device: '', // no collar sent it: the mail links to the Devices screen
        device_id: 'PET-TEST',
        device_name: 'Test collar',
        dog_id: null,
        dog_name: input.petName,
        type: 'heat',
        level,
        resolved: false,
        opened_at: at,
        reading_at: at,
        escalated_at: null,
        resolved_at: null,
        resolved_by: null,
        resolved_reading_at: null,
        peak_temperature_celsius: celsius,
        peak_heat_index_f: null,
        battery_level: null,
        reasons: [],
        acknowledged_at: null,
        acknowledged_by_name: null,
      },
      notification: {
        id: 'test',
        kind: 'opened',
        alert_id: 'test',
        alert_type: 'heat',
        level,
        device: '',
        device_id: 'PET-TEST',
        dog_name: input.petName,
        title: `Test: ${input.petName} — this is what a PawGuard alert looks like`,
        message: 'A sample alert you asked for. No collar sent it.',
        read: false,
        created_at: at,
        acknowledged_at: null,
        acknowledged_by_name: null,
      },
    };
    const mail = alertMail(notice, this.d.links, `test-${randomUUID()}`);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.d.transport.send({
          to: mail.to,
          subject: `[TEST] ${mail.subject}`,
          text: mail.text,
          html: mail.html,
        }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error('the mail server did not answer within 10 seconds')),
            TEST_EMAIL_TIMEOUT_MS,
          );
        }),
      ]);
      if (this.d.transport.kind === 'file')
        return { success: true, delivered: false, message: notSentWords(user) };
      return { success: true, delivered: true, message: `Test email sent to ${user.email}.` };
    } catch (err) {
      this.d.log.warn({ err, event: 'mail.test_failed' }, 'test email not sent');
      return {
        success: false,
        delivered: false,
        message: `Could not send the test email: ${reason(err)}.`,
      };
    } finally {
      clearTimeout(timer);
    }
  }

  start(): void {
    const run = () => {
      if (this.running) return;
      this.running = this.sendDigests()
        .catch((err: unknown) => this.d.log.error({ err }, 'digest mail failed'))
        .finally(() => (this.running = undefined));
    };
    this.timer = setInterval(run, DIGEST_TICK_MS);
    this.timer.unref();
    run();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}

/** A reason a person can act on, without the server's internals. */
function reason(err: unknown): string {
  const e = err as { code?: string; message?: string; responseCode?: number };
  if (e.message?.includes('within 10 seconds')) return e.message;
  if (e.code === 'ETIMEDOUT' || /timeout|timed out/i.test(e.message ?? ''))
    return 'the mail server did not answer in time';
  if (['ECONNREFUSED', 'ENOTFOUND', 'EDNS', 'ESOCKET', 'ECONNECTION'].includes(e.code ?? ''))
    return 'the mail server could not be reached';
  if (e.responseCode) return `the mail server refused it (${e.responseCode})`;
  return 'the mail server did not accept it';
}

/**
 * What the test e-mail's sender reads when the server has no mail service (SMTP_URL unset, so
 * the mail was written to DATA_DIR/outbox): an owner, what happened and who can fix it, in an
 * owner's words; an admin, where the mail is and what to set. Both sit under the spec's title
 * 'Test Email Sent', so neither says the mail was "not sent": it was prepared, and waits.
 */
function notSentWords(user: User): string {
  if (user.role === 'admin')
    return `Your test e-mail to ${user.email} was prepared and saved as a file in the outbox folder of the server's data directory: no mail server is configured (SMTP_URL). Set SMTP_URL to deliver mail.`;
  return `Your test e-mail to ${user.email} was prepared, but this PawGuard service cannot deliver e-mail at the moment. Please ask your PawGuard administrator.`;
}
