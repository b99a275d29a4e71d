import type { FastifyBaseLogger } from 'fastify';
import type { SessionsRepository } from '../repositories/sessions-repository.js';
import type { EmailConfirmationsRepository } from '../repositories/email-confirmations-repository.js';
import type { OutboxRepository } from '../repositories/outbox-repository.js';
import type { ReadingsRepository } from '../repositories/readings-repository.js';
import type { StreamTicketsRepository } from '../repositories/stream-tickets-repository.js';
import type { Clock } from './clock.js';

/** Sent mail is kept this long (to answer "did you send it?"), then pruned. */
export const SENT_MAIL_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
const EVERY_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Readings per delete: each is a short transaction, so ingest never waits long behind it. */
export const READINGS_PRUNE_BATCH = 1_000;

/**
 * Removes rows that can never matter again, so tables stay the size of what is live: ended
 * sessions, spent confirmation links, spent stream tickets, sent mail past its retention, and
 * raw readings older than READINGS_RETENTION_DAYS. Runs hourly beside the mail worker (every
 * instance may run it: deleting the same rows twice is harmless).
 */
export class Housekeeping {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly d: {
      sessions: SessionsRepository;
      confirmations: EmailConfirmationsRepository;
      outbox: OutboxRepository;
      streamTickets: StreamTicketsRepository;
      readings: ReadingsRepository;
      readingsRetentionDays: number;
      /** PostgreSQL: claim the rows to prune, skipping another instance's (see pruneOlderThan). */
      lockRows?: boolean;
      clock: Clock;
      log: FastifyBaseLogger;
    },
  ) {}

  async prune(): Promise<{
    sessions: number;
    confirmations: number;
    mail: number;
    tickets: number;
    readings: number;
  }> {
    const now = this.d.clock.now();
    const iso = now.toISOString();
    const result = {
      sessions: await this.d.sessions.pruneEnded(iso),
      confirmations: await this.d.confirmations.pruneSpent(iso),
      mail: await this.d.outbox.pruneSent(
        new Date(now.getTime() - SENT_MAIL_RETENTION_MS).toISOString(),
      ),
      tickets: await this.d.streamTickets.pruneExpired(iso),
      readings: await this.pruneReadings(now.getTime() - this.d.readingsRetentionDays * DAY_MS),
    };
    this.d.log.info({ event: 'housekeeping', ...result }, 'pruned ended rows');
    return result;
  }

  /** Old readings, in small batches with a pause between them for waiting requests. */
  private async pruneReadings(cutoff: number): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.d.readings.pruneOlderThan(cutoff, READINGS_PRUNE_BATCH, this.d.lockRows);
      total += n;
      if (n < READINGS_PRUNE_BATCH) return total;
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  start(): void {
    const run = () =>
      void this.prune().catch((err: unknown) => this.d.log.error({ err }, 'housekeeping failed'));
    this.timer = setInterval(run, EVERY_MS);
    this.timer.unref();
    run();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
