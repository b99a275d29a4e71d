import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * The offline sweep's queries on `devices`: which held collars have been silent since a
 * cutoff, and the guarded UPDATE that takes one offline.
 */
export class OfflineSweepRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Up to `limit` active, held collars last seen at `cutoff` (ISO) or before, longest silent first. */
  silentSince(cutoff: string, limit: number): Promise<{ id: string }[]> {
    return this.db
      .selectFrom('devices')
      .select(['id'])
      .where('status', '=', 'active')
      .where('user_id', 'is not', null)
      .where('last_seen', '<=', cutoff)
      .orderBy('last_seen')
      .limit(limit)
      .execute();
  }

  /**
   * Takes a collar offline at `at` only if it is still active, held and silent since `cutoff`:
   * the condition is checked by the UPDATE itself, so of several sweeps at once exactly one
   * takes it, and a reading stored meanwhile wins. Answers its owner and last times, or
   * undefined when the collar no longer qualifies.
   */
  takeOffline(id: string, cutoff: string, at: string, trx: Transaction<Database>) {
    return trx
      .updateTable('devices')
      .set({ status: 'offline', updated_at: at })
      .where('id', '=', id)
      .where('status', '=', 'active')
      .where('user_id', 'is not', null)
      .where('last_seen', '<=', cutoff)
      .returning(['user_id', 'vitals_recorded_at', 'last_seen'])
      .executeTakeFirst();
  }
}
