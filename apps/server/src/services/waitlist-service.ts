import { randomUUID } from 'node:crypto';
import { toCsv, type WaitlistEntry, type WaitlistInput } from '@pawguard/shared';
import { isUniqueViolation } from '../db/index.js';
import type { WaitlistRepository, WaitlistRow } from '../repositories/waitlist-repository.js';
import type { Clock } from './clock.js';
import { ConflictError } from './errors.js';

/** The export reads the list this many rows at a time, to the end: it never stops short. */
const EXPORT_BATCH = 1_000;

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
    private readonly exportBatch = EXPORT_BATCH,
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

  async page(limit: number, offset: number): Promise<{ entries: WaitlistEntry[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.waitlist.listNewestFirst(limit, offset),
      this.waitlist.count(),
    ]);
    return { entries: rows.map(toEntry), total };
  }

  /** Every entry, newest first: read in batches until a short one, never truncated. */
  async csv(): Promise<string> {
    const entries: WaitlistEntry[] = [];
    for (let offset = 0; ; offset += this.exportBatch) {
      const rows = await this.waitlist.listNewestFirst(this.exportBatch, offset);
      entries.push(...rows.map(toEntry));
      if (rows.length < this.exportBatch) break;
    }
    return toCsv(
      ['Name', 'Email', 'Phone', 'Pet name', 'Pet breed', 'Joined'],
      entries.map((e) => [e.name, e.email, e.phone, e.petName, e.petBreed, e.created_at]),
    );
  }
}
