import type { Kysely, Transaction } from 'kysely';
import type { Database, UsersTable } from '../db/schema.js';
import type { Dialect } from '../db/index.js';

export type UserRow = UsersTable;
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

  async insert(row: UserRow, ex: Executor = this.db): Promise<void> {
    await ex.insertInto('users').values(row).execute();
  }

  async count(): Promise<number> {
    const r = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Every user with the number of pets they have, newest first. */
  listWithDogCounts() {
    return this.db
      .selectFrom('users')
      .leftJoin('dogs', 'dogs.user_id', 'users.id')
      .select(['users.id', 'users.name', 'users.email', 'users.role', 'users.created_at'])
      .select((eb) => eb.fn.count<number>('dogs.id').as('dogs_count'))
      .groupBy(['users.id', 'users.name', 'users.email', 'users.role', 'users.created_at'])
      .orderBy('users.created_at', 'desc')
      .execute();
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
