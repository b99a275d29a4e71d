import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, OutboxTable } from '../db/schema.js';

type Executor = Kysely<Database> | Transaction<Database>;

export interface OutgoingMail {
  /** Same key, same mail: a second enqueue with it is ignored. */
  idempotencyKey: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export type OutboxRow = Selectable<OutboxTable>;

export class OutboxRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Call inside the transaction that records the event the mail reports. `push`: the row is a
   * push to that browser instead (docs/push.md): `to` names the subscription, `text` the payload.
   */
  async enqueue(
    mail: OutgoingMail,
    now: string,
    ex: Executor = this.db,
    push?: { subscriptionId: string },
  ): Promise<void> {
    await ex
      .insertInto('outbox')
      .values({
        id: randomUUID(),
        ...(push ? { channel: 'push' as const, push_subscription_id: push.subscriptionId } : {}),
        idempotency_key: mail.idempotencyKey,
        to_address: mail.to,
        subject: mail.subject,
        text_body: mail.text,
        html_body: mail.html ?? null,
        status: 'pending',
        next_attempt_at: now,
        last_error: null,
        created_at: now,
        sent_at: null,
      })
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .execute();
  }

  /** The rows of one channel (mail, or pushes: docs/push.md) due by `now`, the longest due first. */
  due(now: string, limit: number, channel: 'mail' | 'push' = 'mail') {
    return this.db
      .selectFrom('outbox')
      .selectAll()
      .where('channel', '=', channel)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .orderBy('next_attempt_at', 'asc')
      .limit(limit)
      .execute();
  }

  /**
   * Takes a due row for one worker: moves its next attempt to `leaseUntil` and names the
   * instance holding it, only if it is still pending at the attempt time this worker read. The
   * condition is checked by the UPDATE itself, so of several workers (processes, on one
   * database) exactly one wins; a worker that dies mid-send leaves the row due again when the
   * lease ends, or at once when its instance starts again (releaseClaims).
   */
  async claim(
    row: Pick<OutboxRow, 'id' | 'next_attempt_at'>,
    leaseUntil: string,
    instance: string,
  ): Promise<boolean> {
    const r = await this.db
      .updateTable('outbox')
      .set({ next_attempt_at: leaseUntil, claimed_by: instance })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '=', row.next_attempt_at)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /**
   * Makes the rows of `channel` that `instance` still holds due now (at start-up: the process that claimed them
   * is gone, since one process at a time owns an instance's DATA_DIR, and what it had claimed
   * but not finished is sent again at once instead of after the lease). Answers how many.
   */
  async releaseClaims(
    instance: string,
    now: string,
    channel: 'mail' | 'push' = 'mail',
  ): Promise<number> {
    const r = await this.db
      .updateTable('outbox')
      .set({ next_attempt_at: now, claimed_by: null })
      .where('claimed_by', '=', instance)
      .where('channel', '=', channel)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /**
   * How much mail waits to be delivered, when the oldest of it was queued, and how much was
   * given up (for the metrics scrape; pushes are not mail). Reads through the channel index:
   * pending rows are a few when mail flows.
   */
  async pendingSummary(): Promise<{ pending: number; oldest: string | null; failed: number }> {
    const [r, f] = await Promise.all([
      this.db
        .selectFrom('outbox')
        .select((eb) => [
          eb.fn.countAll<number>().as('pending'),
          eb.fn.min('created_at').as('oldest'),
        ])
        .where('channel', '=', 'mail')
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow(),
      // Given-up mail is kept (sent mail is pruned, failed mail never is), through the same index.
      this.db
        .selectFrom('outbox')
        .select((eb) => eb.fn.countAll<number>().as('failed'))
        .where('channel', '=', 'mail')
        .where('status', '=', 'failed')
        .executeTakeFirstOrThrow(),
    ]);
    return { pending: Number(r.pending), oldest: r.oldest ?? null, failed: Number(f.failed) };
  }

  /**
   * Given-up mail, the most recently given up first (mail given up before `failed_at` was
   * recorded, by when it was queued), at most `limit` rows, and how many there are in all.
   * Never the body.
   */
  async listFailed(limit: number) {
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom('outbox')
        .select([
          'id',
          'idempotency_key',
          'to_address',
          'subject',
          'created_at',
          'failed_at',
          'attempts',
          'failure_reason',
          'last_error',
        ])
        .where('channel', '=', 'mail')
        .where('status', '=', 'failed')
        .orderBy((eb) => eb.fn.coalesce('failed_at', 'created_at'), 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute(),
      this.db
        .selectFrom('outbox')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .where('channel', '=', 'mail')
        .where('status', '=', 'failed')
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  /**
   * Puts a given-up mail back in the queue, due at `now` and queued anew then (its day of
   * retries starts again, and the metrics do not count it as waiting since it was first
   * queued); only a mail still given up. Answers whether it did.
   */
  async requeueFailed(id: string, now: string): Promise<boolean> {
    const r = await this.db
      .updateTable('outbox')
      .set({
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
        created_at: now,
        failed_at: null,
        failure_reason: null,
        claimed_by: null,
      })
      .where('id', '=', id)
      .where('channel', '=', 'mail')
      .where('status', '=', 'failed')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Sent mail older than `before` (kept a while for support questions, then pruned). */
  async pruneSent(before: string): Promise<number> {
    const r = await this.db
      .deleteFrom('outbox')
      .where('status', '=', 'sent')
      .where('sent_at', '<', before)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /**
   * Marks a row sent, only while the worker still holds the lease it claimed it with (its
   * attempt time is still `lease`); answers whether it did. A worker that lost its lease (it
   * ran past it, and another took the row) changes nothing.
   */
  async markSent(id: string, now: string, lease: string): Promise<boolean> {
    const r = await this.db
      .updateTable('outbox')
      .set({ status: 'sent', sent_at: now, last_error: null, claimed_by: null })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '=', lease)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /**
   * Schedules the next attempt, or gives the mail up when `givenUp` says when and why (shown on
   * the Admin Portal), under the same lease condition as markSent.
   */
  async markRetry(
    id: string,
    lease: string,
    attempts: number,
    nextAttemptAt: string,
    error: string,
    givenUp: { at: string; reason: string } | null,
  ): Promise<boolean> {
    const r = await this.db
      .updateTable('outbox')
      .set({
        attempts,
        next_attempt_at: nextAttemptAt,
        last_error: error.slice(0, 500),
        status: givenUp ? 'failed' : 'pending',
        claimed_by: null,
        ...(givenUp ? { failed_at: givenUp.at, failure_reason: givenUp.reason.slice(0, 500) } : {}),
      })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '=', lease)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
}
