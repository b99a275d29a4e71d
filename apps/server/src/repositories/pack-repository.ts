import type { Kysely, Selectable, Transaction } from 'kysely';
import type { PackRole, PetAccess } from '@pawguard/shared';
import type { Database, PackInvitationsTable, PackMembersTable } from '../db/schema.js';

type Executor = Kysely<Database> | Transaction<Database>;

export type PackMemberRow = Selectable<PackMembersTable>;
export type PackInvitationRow = Selectable<PackInvitationsTable>;

/**
 * Who shares a pet with its owner (docs/pack.md), and the invitations to do so. A membership
 * counts while its `until` is unset or later than `now`: every query that grants something
 * takes `now` and checks it, so an expired caregiver sees nothing without any job removing them.
 */
export class PackRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** What `userId` is to the pet now: its owner, an active member's role, or nothing. */
  async accessToDog(
    userId: string,
    dogId: string,
    now: string,
    ex: Executor = this.db,
  ): Promise<PetAccess | null> {
    const row = await ex
      .selectFrom('dogs')
      .leftJoin('pack_members as m', (j) =>
        j
          .onRef('m.dog_id', '=', 'dogs.id')
          .on('m.user_id', '=', userId)
          .on((eb) => eb.or([eb('m.until', 'is', null), eb('m.until', '>', now)])),
      )
      .select(['dogs.user_id', 'm.role'])
      .where('dogs.id', '=', dogId)
      .executeTakeFirst();
    if (!row) return null;
    if (row.user_id === userId) return 'owner';
    return row.role ?? null;
  }

  /** The pets shared with `userId` now, and as what. */
  sharedDogs(userId: string, now: string, ex: Executor = this.db) {
    return ex
      .selectFrom('pack_members')
      .select(['dog_id', 'role'])
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('until', 'is', null), eb('until', '>', now)]))
      .execute();
  }

  /** The collars on pets shared with each of these users now (what their streams also carry). */
  async sharedDevicesOf(userIds: string[], now: string): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (userIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('pack_members as m')
      .innerJoin('devices', 'devices.dog_id', 'm.dog_id')
      .select(['m.user_id', 'devices.id'])
      .where('m.user_id', 'in', userIds)
      .where((eb) => eb.or([eb('m.until', 'is', null), eb('m.until', '>', now)]))
      .execute();
    for (const r of rows) {
      const list = out.get(r.user_id);
      if (list) list.push(r.id);
      else out.set(r.user_id, [r.id]);
    }
    return out;
  }

  /** The collars on pets shared with `userId` now (what their live stream also carries). */
  async sharedDeviceIds(userId: string, now: string, ex: Executor = this.db): Promise<string[]> {
    const rows = await ex
      .selectFrom('pack_members as m')
      .innerJoin('devices', 'devices.dog_id', 'm.dog_id')
      .select('devices.id')
      .where('m.user_id', '=', userId)
      .where((eb) => eb.or([eb('m.until', 'is', null), eb('m.until', '>', now)]))
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * The pack members who hear of a collar's alerts now (its pet's active members; not its
   * owner), with the earliest `until` among them (when this answer stops being true).
   */
  async activeMembersOfDevice(
    deviceUuid: string,
    now: string,
    ex: Executor = this.db,
  ): Promise<{ user_id: string; role: PackRole; until: string | null }[]> {
    return ex
      .selectFrom('devices')
      .innerJoin('pack_members as m', 'm.dog_id', 'devices.dog_id')
      .select(['m.user_id', 'm.role', 'm.until'])
      .where('devices.id', '=', deviceUuid)
      .where((eb) => eb.or([eb('m.until', 'is', null), eb('m.until', '>', now)]))
      .orderBy('m.created_at')
      .execute();
  }

  /** Everyone in a pet's pack, lapsed ones too (the owner's list), with names. */
  members(dogId: string, ex: Executor = this.db) {
    return ex
      .selectFrom('pack_members as m')
      .innerJoin('users', 'users.id', 'm.user_id')
      .select(['m.user_id', 'm.role', 'm.until', 'm.created_at', 'users.name', 'users.email'])
      .where('m.dog_id', '=', dogId)
      .orderBy('m.created_at')
      .execute();
  }

  /** Adds `userId` to the pack, or gives a member the new role and until. */
  async addMember(row: PackMemberRow, ex: Executor = this.db): Promise<void> {
    await ex
      .insertInto('pack_members')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['dog_id', 'user_id']).doUpdateSet({ role: row.role, until: row.until }),
      )
      .execute();
  }

  /** Removes a member; answers whether there was one. */
  async removeMember(dogId: string, userId: string, ex: Executor = this.db): Promise<boolean> {
    const r = await ex
      .deleteFrom('pack_members')
      .where('dog_id', '=', dogId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** The people of a pet's pack whose collars' events their streams carry (members, any state). */
  async memberIds(dogId: string, ex: Executor = this.db): Promise<string[]> {
    const rows = await ex
      .selectFrom('pack_members')
      .select('user_id')
      .where('dog_id', '=', dogId)
      .execute();
    return rows.map((r) => r.user_id);
  }

  async insertInvitation(row: PackInvitationRow, ex: Executor = this.db): Promise<void> {
    await ex.insertInto('pack_invitations').values(row).execute();
  }

  /** A pet's invitations not yet accepted, revoked or expired, the newest first. */
  openInvitations(dogId: string, now: string, ex: Executor = this.db) {
    return ex
      .selectFrom('pack_invitations')
      .selectAll()
      .where('dog_id', '=', dogId)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .execute();
  }

  /** How many members and open invitations a pet's pack holds (its cap). */
  async size(dogId: string, now: string, ex: Executor = this.db): Promise<number> {
    const [m, i] = await Promise.all([
      ex
        .selectFrom('pack_members')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('dog_id', '=', dogId)
        .executeTakeFirstOrThrow(),
      ex
        .selectFrom('pack_invitations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('dog_id', '=', dogId)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirstOrThrow(),
    ]);
    return Number(m.n) + Number(i.n);
  }

  /** An invitation by its link's token hash, whatever its state. */
  invitationByHash(tokenHash: string, ex: Executor = this.db) {
    return ex
      .selectFrom('pack_invitations')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  /**
   * Spends an invitation for `userId`: only while it is open (not accepted, revoked or expired),
   * in one guarded UPDATE, so a link accepted twice at once joins once. Answers whether it did.
   */
  async spendInvitation(id: string, userId: string, now: string, ex: Executor): Promise<boolean> {
    const r = await ex
      .updateTable('pack_invitations')
      .set({ accepted_at: now, accepted_by: userId })
      .where('id', '=', id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Revokes an open invitation of a pet; answers whether there was one. */
  async revokeInvitation(dogId: string, id: string, now: string): Promise<boolean> {
    const r = await this.db
      .updateTable('pack_invitations')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('dog_id', '=', dogId)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
}
