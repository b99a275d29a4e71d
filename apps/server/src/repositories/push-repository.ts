import { randomUUID } from 'node:crypto';
import type { OutboxRepository } from './outbox-repository.js';
import type { Kysely, Transaction } from 'kysely';
import { DEFAULT_PUSH_SETTINGS, type PushSettings } from '@pawguard/shared';
import { fromBool, toBool, type Database, type PushSubscriptionsTable } from '../db/schema.js';

type Executor = Kysely<Database> | Transaction<Database>;

export type PushSubscriptionRow = PushSubscriptionsTable;

/** What one push row carries to the worker: the payload (JSON) and how the push service keeps it. */
export interface OutgoingPush {
  /** Same key, same push: a second enqueue with it is ignored. */
  idempotencyKey: string;
  subscriptionId: string;
  /** A line for the logs and the outbox row's subject: the title, never the keys. */
  title: string;
  /** The JSON the service worker receives. */
  payload: string;
}

/** Browsers that take a person's pushes, which alerts push, and push rows for the outbox. */
export class PushRepository {
  constructor(
    private readonly db: Kysely<Database>,
    /** The outbox a push row is written to (pushes ride it like mail). */
    private readonly outbox: OutboxRepository,
  ) {}

  /**
   * Stores a browser's subscription for `userId`, at most `max` per person: subscribing the
   * same endpoint again (under this or another account) replaces its keys and owner, and past
   * `max` the oldest go. Answers the row kept.
   */
  async subscribe(row: Omit<PushSubscriptionRow, 'id'>, max: number): Promise<PushSubscriptionRow> {
    return this.db.transaction().execute(async (trx) => {
      // A browser moves to the account now signed in on it: what was queued for the previous
      // one is not delivered to it.
      const before = await trx
        .selectFrom('push_subscriptions')
        .select(['id', 'user_id'])
        .where('endpoint', '=', row.endpoint)
        .executeTakeFirst();
      if (before && before.user_id !== row.user_id) await this.dropQueued([before.id], trx);
      // One statement whatever else subscribes the same endpoint at once (a double click).
      const { id } = await trx
        .insertInto('push_subscriptions')
        .values({ id: randomUUID(), ...row })
        .onConflict((oc) =>
          oc.column('endpoint').doUpdateSet({
            user_id: row.user_id,
            p256dh: row.p256dh,
            auth: row.auth,
            created_at: row.created_at,
          }),
        )
        .returning('id')
        .executeTakeFirstOrThrow();
      const extra = await trx
        .selectFrom('push_subscriptions')
        .select('id')
        .where('user_id', '=', row.user_id)
        .where('id', '!=', id)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .offset(max - 1)
        .limit(1_000)
        .execute();
      if (extra.length)
        await this.remove(
          extra.map((e) => e.id),
          trx,
        );
      return { id, ...row };
    });
  }

  /** This person's browsers, the newest first. */
  listForUser(userId: string, ex: Executor = this.db) {
    return ex
      .selectFrom('push_subscriptions')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  findById(id: string, ex: Executor = this.db) {
    return ex.selectFrom('push_subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Removes this person's subscription of `endpoint`; answers whether there was one. */
  async unsubscribe(userId: string, endpoint: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('push_subscriptions')
        .select('id')
        .where('user_id', '=', userId)
        .where('endpoint', '=', endpoint)
        .executeTakeFirst();
      if (!row) return false;
      await this.remove([row.id], trx);
      return true;
    });
  }

  /**
   * Removes subscriptions and what is queued for them (the push service said the browser is
   * gone, or the person turned pushes off there).
   */
  async remove(ids: string[], ex: Executor = this.db): Promise<void> {
    if (ids.length === 0) return;
    await this.dropQueued(ids, ex);
    await ex.deleteFrom('push_subscriptions').where('id', 'in', ids).execute();
  }

  private async dropQueued(ids: string[], ex: Executor): Promise<void> {
    await ex
      .deleteFrom('outbox')
      .where('channel', '=', 'push')
      .where('status', '=', 'pending')
      .where('push_subscription_id', 'in', ids)
      .execute();
  }

  async settings(userId: string, ex: Executor = this.db): Promise<PushSettings> {
    const row = await ex
      .selectFrom('push_settings')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) return { ...DEFAULT_PUSH_SETTINGS };
    return {
      min_level: row.min_level,
      offline: toBool(row.offline),
      low_battery: toBool(row.low_battery),
    };
  }

  async saveSettings(userId: string, s: PushSettings, now: string): Promise<void> {
    const fields = {
      min_level: s.min_level,
      offline: fromBool(s.offline),
      low_battery: fromBool(s.low_battery),
      updated_at: now,
    };
    await this.db
      .insertInto('push_settings')
      .values({ user_id: userId, ...fields })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(fields))
      .execute();
  }

  /** How many pushes were queued for one browser since `since` (the hourly cap's count). */
  async countQueuedSince(
    subscriptionId: string,
    since: string,
    ex: Executor = this.db,
  ): Promise<number> {
    const r = await ex
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('push_subscription_id', '=', subscriptionId)
      .where('channel', '=', 'push')
      .where('created_at', '>=', since)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Queues a push in the outbox; call inside the transaction of the event it reports. */
  enqueue(push: OutgoingPush, now: string, ex: Executor = this.db): Promise<void> {
    return this.outbox.enqueue(
      {
        idempotencyKey: push.idempotencyKey,
        to: push.subscriptionId,
        subject: push.title,
        text: push.payload,
      },
      now,
      ex,
      { subscriptionId: push.subscriptionId },
    );
  }
}
