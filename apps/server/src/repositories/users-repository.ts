import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { Database, UsersTable } from '../db/schema.js';
import type { Dialect } from '../db/index.js';
import type { PageRequest } from './paging.js';

export type UserRow = Selectable<UsersTable>;
type Executor = Kysely<Database> | Transaction<Database>;

export class UsersRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  findById(id: string, ex: Executor = this.db) {
    return ex.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByEmail(email: string) {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email.toLowerCase())
      .executeTakeFirst();
  }

  async insert(row: Insertable<UsersTable>, ex: Executor = this.db): Promise<void> {
    await ex.insertInto('users').values(row).execute();
  }

  async count(): Promise<number> {
    const r = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** A page of users with the number of pets each has, newest first. */
  pageWithDogCounts({ limit, offset }: PageRequest) {
    return this.db
      .selectFrom('users')
      .select([
        'users.id',
        'users.name',
        'users.email',
        'users.role',
        'users.time_zone',
        'users.temperature_unit',
        'users.weight_unit',
        'users.created_at',
      ])
      .select((eb) =>
        eb
          .selectFrom('dogs')
          .whereRef('dogs.user_id', '=', 'users.id')
          .select((e) => e.fn.countAll<number>().as('n'))
          .as('dogs_count'),
      )
      .orderBy('users.created_at', 'desc')
      .orderBy('users.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  /** Counts over every user: all, admins, and those with at least one pet. */
  async counts(): Promise<{ total: number; admins: number; active: number }> {
    const r = await this.db
      .selectFrom('users')
      .select((eb) => [
        eb.fn.countAll<number>().as('total'),
        eb.fn.sum<number>(eb.case().when('role', '=', 'admin').then(1).else(0).end()).as('admins'),
        eb.fn
          .sum<number>(
            eb
              .case()
              .when(
                eb.exists(
                  eb.selectFrom('dogs').whereRef('dogs.user_id', '=', 'users.id').select('dogs.id'),
                ),
              )
              .then(1)
              .else(0)
              .end(),
          )
          .as('active'),
      ])
      .executeTakeFirstOrThrow();
    return { total: Number(r.total), admins: Number(r.admins ?? 0), active: Number(r.active ?? 0) };
  }

  /**
   * The ids of every admin, locked until the transaction ends on PostgreSQL (SQLite runs one
   * write transaction at a time), so two admins demoting each other cannot both succeed.
   */
  lockAdminIds(trx: Transaction<Database>) {
    const q = trx.selectFrom('users').select('id').where('role', '=', 'admin');
    return (this.dialect === 'postgres' ? q.forUpdate() : q).execute();
  }

  async setRole(
    id: string,
    role: UserRow['role'],
    now: string,
    ex: Executor = this.db,
  ): Promise<void> {
    await ex.updateTable('users').set({ role, updated_at: now }).where('id', '=', id).execute();
  }

  async setTimeZone(id: string, timeZone: string, now: string): Promise<UserRow | undefined> {
    return this.setPreferences(id, { time_zone: timeZone }, now);
  }

  /** Sets the given display preferences (the others are kept); undefined when no such user. */
  async setPreferences(
    id: string,
    changes: Partial<Pick<UserRow, 'time_zone' | 'temperature_unit' | 'weight_unit'>>,
    now: string,
  ): Promise<UserRow | undefined> {
    return this.db
      .updateTable('users')
      .set({ ...changes, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async markEmailVerified(id: string, now: string, ex: Executor = this.db): Promise<void> {
    await ex
      .updateTable('users')
      .set({ email_verified_at: now, updated_at: now })
      .where('id', '=', id)
      .where('email_verified_at', 'is', null)
      .execute();
  }

  async delete(id: string, ex: Executor = this.db): Promise<void> {
    await ex.deleteFrom('users').where('id', '=', id).execute();
  }
}
