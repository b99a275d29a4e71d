import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { pushPayloadSchema } from '@pawguard/shared';
import type { OutboxRepository, OutboxRow } from '../repositories/outbox-repository.js';
import type { PushRepository } from '../repositories/push-repository.js';
import { ClaimingWorker, retryDelayMs } from './outbox-worker.js';
import { classifyPushFailure, pushFailureWords, type PushSender } from './push-sender.js';
import { pushTiming } from './alert-push.js';

/** Pushes sent at once: a push service that hangs (10 s at most) holds up only its own. */
export const PUSH_CONCURRENCY = 8;

/**
 * Delivers the outbox's pushes (docs/push.md): each to its browser's push service, retried with
 * backoff while the push service is unavailable, given up once the push would have expired
 * there anyway (its TTL). A browser the push service no longer knows (404, 410) is deleted with
 * whatever else waits for it. The log names a push by its row and its push service's host,
 * never by the endpoint's path or the keys.
 */
export class PushWorker extends ClaimingWorker {
  constructor(
    outbox: OutboxRepository,
    private readonly subscriptions: PushRepository,
    private readonly sender: PushSender,
    log: FastifyBaseLogger,
    intervalMs = 1_000,
    now: () => Date = () => new Date(),
    instance: string = randomUUID(),
  ) {
    super(outbox, log, 'push', intervalMs, now, instance, PUSH_CONCURRENCY);
  }

  protected async deliver(row: OutboxRow, lease: string): Promise<boolean> {
    const sub = row.push_subscription_id
      ? await this.subscriptions.findById(row.push_subscription_id)
      : undefined;
    if (!sub) {
      // The browser unsubscribed or its account was deleted since: nobody to push to.
      await this.outbox.markRetry(row.id, lease, row.attempts, lease, 'no subscription', {
        at: this.now().toISOString(),
        reason: 'the browser no longer takes pushes',
      });
      return false;
    }
    const host = new URL(sub.endpoint).host;
    const parsed = pushPayloadSchema.safeParse(JSON.parse(row.text_body));
    const timing = pushTiming(parsed.success ? parsed.data : null);
    try {
      await this.sender.send(
        { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
        { payload: row.text_body, ...timing },
      );
      if (!(await this.outbox.markSent(row.id, this.now().toISOString(), lease)))
        this.log.warn({ pushId: row.id }, 'push sent after its claim lapsed');
      this.log.info({ pushId: row.id, pushService: host }, 'push sent');
      return true;
    } catch (err) {
      const attempts = row.attempts + 1;
      const failure = classifyPushFailure(err);
      const words = pushFailureWords(err);
      const expired = this.now().getTime() - Date.parse(row.created_at) >= timing.ttlSeconds * 1000;
      if (failure === 'gone') {
        // The browser is gone (uninstalled, cleared, unsubscribed): so is what waits for it.
        await this.subscriptions.remove([sub.id]);
        this.log.info(
          { pushId: row.id, pushService: host, err: words },
          'push service no longer knows this browser: its subscription is deleted',
        );
        return false;
      }
      const failed = failure === 'refused' || expired;
      const next = new Date(this.now().getTime() + retryDelayMs(attempts)).toISOString();
      await this.outbox.markRetry(
        row.id,
        lease,
        attempts,
        next,
        words,
        failed
          ? {
              at: this.now().toISOString(),
              reason: expired ? `expired before delivery (last: ${words})` : words,
            }
          : null,
      );
      this.log[failed ? 'error' : 'warn'](
        {
          pushId: row.id,
          pushService: host,
          attempts,
          failure,
          ...(failed ? {} : { nextAttemptAt: next }),
          err: words,
        },
        failed
          ? expired
            ? 'push given up: it would have expired at the push service by now'
            : 'push refused by the push service: given up, not retried'
          : 'push delivery failed: retried later',
      );
      return false;
    }
  }
}
