import type { Kysely } from 'kysely';
import type {
  AdminUser,
  ProfilePreferencesInput,
  Role,
  User,
  UsersResponse,
} from '@pawguard/shared';
import type { PageRequest } from '../repositories/paging.js';
import type { Database } from '../db/schema.js';
import type { UsersRepository } from '../repositories/users-repository.js';
import type { Clock } from './clock.js';
import { ConflictError, ForbiddenError, NotFoundError } from './errors.js';
import { toUser } from './auth-service.js';

/**
 * What else goes with a deleted account, inside the deleting transaction: its collars are
 * released. Answers what to announce once the transaction has committed.
 */
export interface UserDeletion {
  onUserDeleted(userId: string, trx: Kysely<Database>): Promise<() => void>;
}

export class UserService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly users: UsersRepository,
    private readonly clock: Clock,
    private readonly collars: UserDeletion,
  ) {}

  /** A page of users, and the counts the Admin Dashboard shows over all of them. */
  async list(page: PageRequest): Promise<UsersResponse> {
    const [rows, counts] = await Promise.all([
      this.users.pageWithDogCounts(page),
      this.users.counts(),
    ]);
    return {
      users: rows.map((r): AdminUser => ({ ...toUser(r), dogs_count: Number(r.dogs_count ?? 0) })),
      total: counts.total,
      admin_count: counts.admins,
      active_count: counts.active,
    };
  }

  async profile(id: string): Promise<User> {
    const row = await this.users.findById(id);
    if (!row) throw new NotFoundError('User not found');
    return toUser(row);
  }

  /** Changes a role; the last admin can never be demoted. */
  async changeRole(id: string, role: Role): Promise<User> {
    return this.db.transaction().execute(async (trx) => {
      const admins = await this.users.lockAdminIds(trx);
      const row = await this.users.findById(id, trx);
      if (!row) throw new NotFoundError('User not found');
      if (row.role === 'admin' && role === 'user' && admins.length <= 1) {
        throw new ConflictError('The last admin cannot be made a user');
      }
      if (row.role !== role)
        await this.users.setRole(id, role, this.clock.now().toISOString(), trx);
      return toUser({ ...row, role });
    });
  }

  /** Stores the caller's time zone (a canonical IANA name, checked by the route's schema). */
  async setTimeZone(id: string, timeZone: string): Promise<User> {
    return this.setPreferences(id, { time_zone: timeZone });
  }

  /**
   * Stores the caller's display preferences (units and time zone, checked by the route's
   * schema); a field left out keeps its value.
   */
  async setPreferences(id: string, input: ProfilePreferencesInput): Promise<User> {
    const changes: Parameters<UsersRepository['setPreferences']>[1] = {};
    if (input.time_zone !== undefined) changes.time_zone = input.time_zone;
    if (input.temperature_unit !== undefined) changes.temperature_unit = input.temperature_unit;
    if (input.weight_unit !== undefined) changes.weight_unit = input.weight_unit;
    const row = await this.users.setPreferences(id, changes, this.clock.now().toISOString());
    if (!row) throw new NotFoundError('User not found');
    return toUser(row);
  }

  /** Removes an account and everything it owns; never the caller's own, never the last admin. */
  async delete(id: string, actorId: string): Promise<void> {
    if (id === actorId) throw new ForbiddenError('You cannot delete your own account');
    const afterCommit = await this.db.transaction().execute(async (trx) => {
      const admins = await this.users.lockAdminIds(trx);
      const row = await this.users.findById(id, trx);
      if (!row) throw new NotFoundError('User not found');
      if (row.role === 'admin' && admins.length <= 1)
        throw new ConflictError('The last admin cannot be deleted');
      const announce = await this.collars.onUserDeleted(id, trx);
      await this.users.delete(id, trx);
      return announce;
    });
    afterCommit();
  }
}
