import { FAILED_MAILS_LIMIT, type FailedMailsResponse, type MailKind } from '@pawguard/shared';
import type { OutboxRepository } from '../repositories/outbox-repository.js';
import type { Clock } from './clock.js';
import { NotFoundError } from './errors.js';
import { oneLineAnswer } from './outbox-worker.js';

/** Outbox keys by what the mail was about (the prefixes the services that queue mail use). */
const KIND_BY_PREFIX: [string, MailKind][] = [
  ['alert-', 'alert'],
  ['digest-', 'digest'],
  ['confirm-', 'confirmation'],
  ['collar-setup-', 'collar_setup'],
];

/** What a mail was about, from its outbox key. */
export function mailKindOf(idempotencyKey: string): MailKind {
  return KIND_BY_PREFIX.find(([prefix]) => idempotencyKey.startsWith(prefix))?.[1] ?? 'other';
}

/**
 * The Admin Portal's list of mail the worker gave up (decision 0040): whom it was for, what it
 * was, and the mail server's last answer. Never the body, which may hold a confirmation link.
 */
export class UndeliveredMail {
  constructor(
    private readonly outbox: OutboxRepository,
    private readonly clock: Clock,
    /** Wakes the mail worker, so a mail put back is sent at once. */
    private readonly onRequeued: () => void = () => {},
  ) {}

  /**
   * Puts a given-up mail back in the queue (after its address or the mail server was mended),
   * to the same recipient with the same Message-ID, due now and with a new day of retries.
   * Only a given-up mail: one pending or sent is not found here.
   */
  async retry(id: string): Promise<{ id: string; status: 'pending' }> {
    if (!(await this.outbox.requeueFailed(id, this.clock.now().toISOString())))
      throw new NotFoundError('No undelivered mail with this id');
    this.onRequeued();
    return { id, status: 'pending' };
  }

  async list(): Promise<FailedMailsResponse> {
    const { rows, total } = await this.outbox.listFailed(FAILED_MAILS_LIMIT);
    return {
      mails: rows.map((r) => ({
        id: r.id,
        recipient: r.to_address,
        subject: r.subject,
        kind: mailKindOf(r.idempotency_key),
        created_at: r.created_at,
        failed_at: r.failed_at ?? null,
        attempts: Number(r.attempts),
        // Mail given up before the reason was recorded: its last error stands for it.
        reason: r.failure_reason ?? oneLineAnswer(r.last_error ?? ''),
      })),
      total,
    };
  }
}
