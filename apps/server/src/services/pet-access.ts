import { PET_RIGHTS, type PetAccess as Access } from '@pawguard/shared';
import type { PackRepository } from '../repositories/pack-repository.js';
import type { Clock } from './clock.js';
import { ForbiddenError } from './errors.js';

/** What a person is to a collar: its pet's owner or pack member, or an admin seeing the fleet. */
export type DeviceRelation = Access | 'admin';

/**
 * Who may do what with a pet and its collars (docs/pack.md, PACK-1): the owner everything; a
 * co-owner sees and manages; a caregiver sees and acknowledges; anyone else gets nothing (the
 * callers answer 404). Read with the clock, so a sitter's week ends on time.
 */
export class PetAccess {
  constructor(
    private readonly pack: PackRepository,
    private readonly clock: Clock,
  ) {}

  /** What `userId` is to the pet now, or null. */
  dog(userId: string, dogId: string): Promise<Access | null> {
    return this.pack.accessToDog(userId, dogId, this.clock.now().toISOString());
  }

  /**
   * What `actor` is to a collar: its owner, a member of its pet's pack, an admin, or null. An
   * owner or member who is also an admin is answered as owner or member (their own rights).
   */
  async device(
    actor: { id: string; role: string },
    row: { user_id: string | null; dog_id: string | null },
  ): Promise<DeviceRelation | null> {
    if (row.user_id !== null && row.user_id === actor.id) return 'owner';
    const member =
      row.dog_id !== null && row.user_id !== null ? await this.dog(actor.id, row.dog_id) : null;
    if (member && member !== 'owner') return member;
    return actor.role === 'admin' ? 'admin' : null;
  }
}

/** Throws 403 unless `access` may manage the pet (its owner or a co-owner). */
export function mustManage(access: Access, what: string): void {
  if (!PET_RIGHTS[access].manage)
    throw new ForbiddenError(`A caregiver can see ${what} but not change it`);
}
