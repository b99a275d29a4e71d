import { randomUUID } from 'node:crypto';
import {
  HEALTH_CONDITIONS,
  parseJsonList,
  type AdminDog,
  type Dog,
  type DogInput,
  DEFAULT_ESCALATION,
  type Escalation,
  type PetAccess as PetAccessLevel,
} from '@pawguard/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { DogFields, DogRow, DogsRepository } from '../repositories/dogs-repository.js';
import type { PageRequest } from '../repositories/paging.js';
import type { Clock } from './clock.js';
import { ForbiddenError, NotFoundError } from './errors.js';
import { mustManage, type PetAccess } from './pet-access.js';

/** The answer for a dog that is not the caller's, or not there (the spec's words: a pet). */
export const DOG_NOT_FOUND = 'Pet not found';

/** '' and omitted optional fields are stored as null; PUT replaces every field. */
const blankToNull = (v: string | null | undefined) =>
  v === undefined || v === null || v.trim() === '' ? null : v.trim();

function toFields(input: DogInput): DogFields {
  return {
    name: input.name.trim(),
    breed: blankToNull(input.breed),
    age: input.age ?? null,
    weight: input.weight ?? null,
    medical_info: blankToNull(input.medical_info),
    emergency_contact: blankToNull(input.emergency_contact),
    sex: input.sex ?? null,
    body_condition: input.body_condition ?? null,
    // Stored in the table's order, so a list compares equal however it was sent.
    health_conditions: JSON.stringify(
      HEALTH_CONDITIONS.filter((c) => input.health_conditions?.includes(c)),
    ),
  };
}

/** The known conditions of a stored pet ([] when none or unreadable). */
export function healthConditionsOf(json: string | null): Dog['health_conditions'] {
  const list = parseJsonList(json);
  return HEALTH_CONDITIONS.filter((c) => list.includes(c));
}

/** A stored pet as its owner sees it (decoded health conditions). */
export function profileOf<T extends DogRow>(
  row: T,
): Omit<T, 'health_conditions'> & {
  health_conditions: Dog['health_conditions'];
} {
  return { ...row, health_conditions: healthConditionsOf(row.health_conditions) };
}

/** A stored pet as `access` sees it: its owner (ownerName null), or a pack member. */
export function toDog(
  row: DogRow,
  access: PetAccessLevel = 'owner',
  ownerName: string | null = null,
): Dog {
  return { ...profileOf(row), access, owner_name: access === 'owner' ? null : ownerName };
}

/** What else goes with a deleted dog, in the transaction that deletes it: its collars come off it. */
export interface DogDeletion {
  onDogDeleted(dogId: string, trx: Kysely<Database>): Promise<void>;
}

export class DogService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dogs: DogsRepository,
    private readonly clock: Clock,
    private readonly collars: DogDeletion,
    private readonly pets: PetAccess,
  ) {}

  /** The person's pets and those shared with them (docs/pack.md), each with what they are to it. */
  async list(userId: string, page: PageRequest): Promise<{ dogs: Dog[]; total: number }> {
    const { rows, total } = await this.dogs.pageByUser(
      userId,
      page,
      this.clock.now().toISOString(),
    );
    return {
      dogs: rows.map(({ pack_role, owner_name, ...row }) =>
        toDog(row, row.user_id === userId ? 'owner' : (pack_role ?? 'caregiver'), owner_name),
      ),
      total,
    };
  }

  /** Every pet with its owner, or one owner's (`ownerId`), a page at a time. */
  async listAll(page: PageRequest, ownerId?: string): Promise<{ dogs: AdminDog[]; total: number }> {
    const { rows, total } = await this.dogs.pageAllWithOwners(page, ownerId);
    return { dogs: rows.map(profileOf), total };
  }

  async create(userId: string, input: DogInput): Promise<Dog> {
    const now = this.clock.now().toISOString();
    const row: DogRow = {
      id: randomUUID(),
      user_id: userId,
      ...toFields(input),
      created_at: now,
      updated_at: now,
    };
    await this.dogs.insert(row);
    return toDog(row);
  }

  /**
   * The pet, when `userId` may see it, and what they are to it; anyone else is told it does not
   * exist (404).
   */
  async seen(userId: string, id: string): Promise<{ dog: DogRow; access: PetAccessLevel }> {
    const [dog, access] = await Promise.all([this.dogs.findById(id), this.pets.dog(userId, id)]);
    if (!dog || !access) throw new NotFoundError(DOG_NOT_FOUND);
    return { dog, access };
  }

  /** Its owner or a co-owner edits the pet (a caregiver: 403). */
  async update(userId: string, id: string, input: DogInput): Promise<Dog> {
    const { dog: seen, access } = await this.seen(userId, id);
    mustManage(access, 'this pet');
    const dog = await this.dogs.updateOwned(
      id,
      seen.user_id,
      toFields(input),
      this.clock.now().toISOString(),
    );
    if (!dog) throw new NotFoundError(DOG_NOT_FOUND);
    return toDog(dog, access, access === 'owner' ? null : await this.ownerName(dog.user_id));
  }

  private async ownerName(ownerId: string): Promise<string | null> {
    return (await this.dogs.ownerName(ownerId)) ?? null;
  }

  /** The pet and what hangs on it (its collars come off it) go in one transaction; its owner's alone. */
  async delete(userId: string, id: string): Promise<void> {
    const { access } = await this.seen(userId, id);
    if (access !== 'owner') throw new ForbiddenError("Only the pet's owner can delete it");
    await this.db.transaction().execute(async (trx) => {
      const dog = await this.dogs.findOwned(id, userId, trx);
      if (!dog) throw new NotFoundError(DOG_NOT_FOUND);
      await this.collars.onDogDeleted(id, trx);
      if (!(await this.dogs.deleteOwned(id, userId, trx))) throw new NotFoundError(DOG_NOT_FOUND);
    });
  }

  /** How long the pet's DANGER and CRITICAL heat alerts wait for an acknowledgement. */
  async escalation(userId: string, id: string): Promise<Escalation> {
    await this.seen(userId, id);
    return (await this.dogs.escalation(id)) ?? { ...DEFAULT_ESCALATION };
  }

  /** Its owner or a co-owner sets them (a caregiver: 403). */
  async saveEscalation(userId: string, id: string, input: Escalation): Promise<Escalation> {
    mustManage((await this.seen(userId, id)).access, "this pet's escalation");
    await this.dogs.saveEscalation(id, input, this.clock.now().toISOString());
    return this.escalation(userId, id);
  }
}
