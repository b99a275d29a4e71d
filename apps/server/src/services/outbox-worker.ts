import type { FastifyBaseLogger } from 'fastify';
import type { OutboxRepository } from '../repositories/outbox-repository.js';
import type { MailTransport } from './mail-transport.js';
import type { Metrics } from './metrics.js';

/**
 * A mail is retried until it is this old: a mail-server outage of hours loses no alert, and
 * only a mail that could not be delivered for a whole day is given up (and logged as such).
 */
export const GIVE_UP_AFTER_MS = 24 * 60 * 60 * 1000;
const BATCH = 20;
/** How long a claimed row is this worker's; a worker that dies mid-send frees it then. */
export const CLAIM_LEASE_MS = 5 * 60 * 1000;
/**
 * A send that has not finished by then is given up (and retried later): well inside the
 * lease, so no other worker can take a row this one is still sending. The SMTP transport's
 * own connection, greeting and socket timeouts (10 s each) normally end it much sooner.
 */
export const SEND_DEADLINE_MS = 2 * 60 * 1000;

/** Retry after 5 s, 10 s, 20 s … capped at 10 minutes. */
export const retryDelayMs = (attempts: number) => Math.min(5_000 * 2 ** (attempts - 1), 600_000);

/**
 * Delivers outbox rows. Each row is claimed (a lease, see OutboxRepository.claim) just
 * before it is sent, so several instances on one database send it once. A row is marked
 * sent only after the transport accepted it, so a crash in between resends it with the same
 * Message-ID when the lease ends (at-least-once, never lost). stop() lets the row being sent
 * finish and starts no other.
 */
export class OutboxWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  // Idle until start(): kick() alone never delivers (tests drive drain() by hand).
  private stopped = true;
  /** Set by stop(): a drain in progress finishes its current row and takes no other. */
  private stopRequested = false;
  private kickedWhileRunning = false;

  constructor(
    private readonly outbox: OutboxRepository,
    private readonly transport: MailTransport,
    private readonly log: FastifyBaseLogger,
    private readonly domain: string,
    private readonly intervalMs = 1_000,
    private readonly now: () => Date = () => new Date(),
    private readonly metrics?: Metrics,
  ) {}

  start(): void {
    this.stopped = false;
    this.stopRequested = false;
    this.schedule(0);
  }

  /** Deliver now rather than at the next tick (after a commit that enqueued mail). */
  kick(): void {
    if (this.stopped) return;
    // A kick during a drain is not lost: that drain goes round once more when it ends.
    if (this.running) this.kickedWhileRunning = true;
    else this.schedule(0);
  }

  private schedule(ms: number) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    this.running = this.drain().then(
      () => undefined,
      (err) => this.log.error({ err }, 'outbox delivery failed'),
    );
    await this.running;
    this.running = undefined;
    const again = this.kickedWhileRunning;
    this.kickedWhileRunning = false;
    if (!this.stopped) this.schedule(again ? 0 : this.intervalMs);
  }

  /** Delivers every due row; returns how many were sent. Exposed for tests. */
  async drain(): Promise<number> {
    let sent = 0;
    for (;;) {
      const rows = await this.outbox.due(this.now().toISOString(), BATCH);
      if (rows.length === 0) return sent;
      let claimed = 0;
      for (const row of rows) {
        // Between rows, never in the middle of one.
        if (this.stopRequested) return sent;
        const lease = new Date(this.now().getTime() + CLAIM_LEASE_MS).toISOString();
        if (!(await this.outbox.claim(row, lease))) continue; // another worker has it
        claimed++;
        let deadline: NodeJS.Timeout | undefined;
        try {
          const { location } = await Promise.race([
            this.transport.send({
              to: row.to_address,
              subject: row.subject,
              text: row.text_body,
              html: row.html_body ?? undefined,
              messageId: `<${row.idempotency_key.replace(/[^A-Za-z0-9._-]/g, '.')}@${this.domain}>`,
            }),
            new Promise<never>((_, reject) => {
              deadline = setTimeout(
                () => reject(new Error('the mail server did not finish in time')),
                SEND_DEADLINE_MS,
              );
              deadline.unref();
            }),
          ]);
          if (!(await this.outbox.markSent(row.id, this.now().toISOString(), lease)))
            this.log.warn({ mailId: row.id }, 'mail sent after its claim lapsed');
          sent++;
          this.metrics?.mail('sent');
          this.log.info(
            { mailId: row.id, ...(location ? { file: location } : {}) },
            location ? 'mail written to the outbox folder' : 'mail sent',
          );
        } catch (err) {
          const attempts = row.attempts + 1;
          // A 5xx answer is the mail server's final word (no such mailbox…): no retry mends it.
          const refused = ((err as { responseCode?: number }).responseCode ?? 0) >= 500;
          const failed =
            refused || this.now().getTime() - Date.parse(row.created_at) >= GIVE_UP_AFTER_MS;
          const next = new Date(this.now().getTime() + retryDelayMs(attempts)).toISOString();
          await this.outbox.markRetry(
            row.id,
            lease,
            attempts,
            next,
            (err as Error).message,
            failed,
          );
          this.metrics?.mail(failed ? 'given_up' : 'failed');
          this.log[failed ? 'error' : 'warn'](
            { mailId: row.id, attempts, failed, err: (err as Error).message },
            refused
              ? 'mail refused by the mail server'
              : failed
                ? 'mail given up after a day of failed deliveries'
                : 'mail delivery failed',
          );
        } finally {
          clearTimeout(deadline);
        }
      }
      // A full batch all taken by others: the rows behind it are someone else's too for now.
      if (rows.length < BATCH || claimed === 0) return sent;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopRequested = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
