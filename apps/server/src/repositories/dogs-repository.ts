import type { Kysely, Transaction } from 'kysely';
import type { Database, DogsTable } from '../db/schema.js';
import type { Dialect } from '../db/index.js';
import { CompiledQueries } from '../db/compiled-queries.js';
import { readPage, readPageCompiled, type PageRequest } from './paging.js';

type Executor = Kysely<Database> | Transaction<Database>;

export type DogRow = DogsTable;
export type DogFields = Pick<
  DogRow,
  | 'name'
  | 'breed'
  | 'age'
  | 'weight'
  | 'medical_info'
  | 'emergency_contact'
  | 'sex'
  | 'body_condition'
  | 'health_conditions'
>;

type ProfileColumn = 'sex' | 'body_condition' | 'health_conditions';

export class DogsRepository {
  private readonly compiled = new CompiledQueries(4);

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * The owner's pet, locked until the transaction ends on PostgreSQL (SQLite runs one write
   * transaction at a time), so two requests for one pet take their turns.
   */
  lockOwned(id: string, userId: string, trx: Transaction<Database>) {
    const q = trx.selectFrom('dogs').selectAll().where('id', '=', id).where('user_id', '=', userId);
    return (this.dialect === 'postgres' ? q.forUpdate() : q).executeTakeFirst();
  }

  /**
   * Every pet of an owner, locked on PostgreSQL (in id order): one person's auto-assigns take
   * turns, so a cap counted per person holds under concurrent requests.
   */
  lockAllOwned(userId: string, trx: Transaction<Database>) {
    const q = trx.selectFrom('dogs').select('id').where('user_id', '=', userId).orderBy('id');
    return (this.dialect === 'postgres' ? q.forUpdate() : q).execute();
  }

  /** An owner's pets, oldest first. */
  /**
   * A person's pets and those shared with them now (docs/pack.md), oldest first, each with what
   * the person is to it (`pack_role`: null for their own) and, for a shared one, its owner.
   */
  pageByUser(userId: string, page: PageRequest, now: string) {
    return readPageCompiled(
      this.compiled,
      this.db,
      'dogs.pageByUser',
      // Each value bound once, in order (a compiled query's rule): the user three times. The
      // owner's pets and the shared ones by an index each (`IN`, not a join, keeps SQLite's
      // multi-index OR).
      ([member, at, owner, sharedWith, now2]) =>
        this.db
          .selectFrom('dogs')
          .leftJoin('pack_members as m', (j) =>
            j
              .onRef('m.dog_id', '=', 'dogs.id')
              .on('m.user_id', '=', member as string)
              .on((eb) => eb.or([eb('m.until', 'is', null), eb('m.until', '>', at as string)])),
          )
          .where((eb) =>
            eb.or([
              eb('dogs.user_id', '=', owner as string),
              eb(
                'dogs.id',
                'in',
                eb
                  .selectFrom('pack_members as s')
                  .select('s.dog_id')
                  .where('s.user_id', '=', sharedWith as string)
                  .where((w) =>
                    w.or([w('s.until', 'is', null), w('s.until', '>', now2 as string)]),
                  ),
              ),
            ]),
          ),
      (q) =>
        q
          .innerJoin('users as owner', 'owner.id', 'dogs.user_id')
          .selectAll('dogs')
          .select(['m.role as pack_role', 'owner.name as owner_name'])
          .orderBy('dogs.created_at', 'asc')
          .orderBy('dogs.id', 'asc'),
      [userId, now, userId, userId, now],
      page,
    );
  }

  /** A person's name (a shared pet's owner, as its pack sees it). */
  async ownerName(userId: string, ex: Executor = this.db): Promise<string | undefined> {
    const row = await ex
      .selectFrom('users')
      .select('name')
      .where('id', '=', userId)
      .executeTakeFirst();
    return row?.name;
  }

  /** A pet by id alone, whoever's it is (its access is checked by the caller). */
  findById(id: string, ex: Executor = this.db) {
    return ex.selectFrom('dogs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Every pet (or one owner's) with its owner, newest first. */
  pageAllWithOwners(page: PageRequest, ownerId?: string) {
    const filtered = this.db
      .selectFrom('dogs')
      .innerJoin('users', 'users.id', 'dogs.user_id')
      .$if(ownerId !== undefined, (q) => q.where('dogs.user_id', '=', ownerId!));
    return readPage(
      filtered,
      (q) =>
        q
          .selectAll('dogs')
          .select(['users.name as owner_name', 'users.email as owner_email'])
          .orderBy('dogs.created_at', 'desc')
          .orderBy('dogs.id', 'desc'),
      page,
    );
  }

  /** A pet only when it belongs to `userId`: another user's pet is simply not found. */
  findOwned(id: string, userId: string, ex: Executor = this.db) {
    return ex
      .selectFrom('dogs')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /** The heat-risk profile fields are optional (unknown). */
  async insert(
    row: Omit<DogRow, ProfileColumn> & Partial<Pick<DogRow, ProfileColumn>>,
  ): Promise<void> {
    await this.db.insertInto('dogs').values(row).execute();
  }

  async updateOwned(
    id: string,
    userId: string,
    fields: DogFields,
    now: string,
  ): Promise<DogRow | undefined> {
    return this.db
      .updateTable('dogs')
      .set({ ...fields, updated_at: now })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
  }

  async deleteOwned(id: string, userId: string, ex: Executor = this.db): Promise<boolean> {
    const r = await ex
      .deleteFrom('dogs')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** A pet's escalation minutes (no row: the defaults). */
  escalation(dogId: string, ex: Executor = this.db) {
    return ex
      .selectFrom('pet_escalation')
      .select(['danger_minutes', 'critical_minutes'])
      .where('dog_id', '=', dogId)
      .executeTakeFirst();
  }

  async saveEscalation(
    dogId: string,
    minutes: { danger_minutes: number; critical_minutes: number },
    now: string,
  ): Promise<void> {
    const fields = { ...minutes, updated_at: now };
    await this.db
      .insertInto('pet_escalation')
      .values({ dog_id: dogId, ...fields })
      .onConflict((oc) => oc.column('dog_id').doUpdateSet(fields))
      .execute();
  }
}
