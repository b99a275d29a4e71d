import { randomUUID } from 'node:crypto';
import { toCsv, type WaitlistEntry, type WaitlistInput } from '@pawguard/shared';
import { isUniqueViolation } from '../db/index.js';
import type { WaitlistRepository, WaitlistRow } from '../repositories/waitlist-repository.js';
import type { Clock } from './clock.js';
import { ConflictError } from './errors.js';

/** The admin list shows every entry; the waitlist is small by nature, so this bound is generous. */
const MAX_ENTRIES = 10_000;

const toEntry = (r: WaitlistRow): WaitlistEntry => ({
  id: r.id,
  name: r.name,
  email: r.email,
  phone: r.phone,
  petName: r.pet_name,
  petBreed: r.pet_breed,
  created_at: r.created_at,
});

export class WaitlistService {
  constructor(
    private readonly waitlist: WaitlistRepository,
    private readonly clock: Clock,
  ) {}

  async join(input: WaitlistInput): Promise<void> {
    try {
      await this.waitlist.insert({
        id: randomUUID(),
        name: input.name,
        email: input.email.toLowerCase(),
        phone: input.phone,
        pet_name: input.petName,
        pet_breed: input.petBreed,
        created_at: this.clock.now().toISOString(),
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError('This email is already on the waitlist');
      throw err;
    }
  }

  async list(): Promise<WaitlistEntry[]> {
    return (await this.waitlist.listNewestFirst(MAX_ENTRIES)).map(toEntry);
  }

  async csv(): Promise<string> {
    const entries = await this.list();
    return toCsv(
      ['Name', 'Email', 'Phone', 'Pet name', 'Pet breed', 'Joined'],
      entries.map((e) => [e.name, e.email, e.phone, e.petName, e.petBreed, e.created_at]),
    );
  }
}
