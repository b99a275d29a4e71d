import { hash as digest, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  PACK_INVITATION_DAYS,
  PACK_JOIN_PAGE,
  PACK_MAX,
  PACK_ROLE_LABELS,
  packActive,
  type Dog,
  type Pack,
  type PackInvitation,
  type PackInvitationInput,
  type PackInvitationPreview,
  type User,
} from '@pawguard/shared';
import type { Database } from '../db/schema.js';
import type { DogsRepository } from '../repositories/dogs-repository.js';
import type { OutboxRepository } from '../repositories/outbox-repository.js';
import type { PackInvitationRow, PackRepository } from '../repositories/pack-repository.js';
import type { Clock } from './clock.js';
import type { MailKick } from './commit-effects.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from './errors.js';
import { DOG_NOT_FOUND, toDog } from './dog-service.js';
import { packInvitationMail } from './mail-templates.js';
import type { PetAccess } from './pet-access.js';
import type { FixedWindowLimit } from './fixed-window-limit.js';

const sha256 = (s: string) => digest('sha256', s, 'hex');
const DAY_MS = 24 * 60 * 60 * 1000;
/** A membership's end date is at most a year ahead (a sitter's week, a season). */
const MAX_UNTIL_MS = 366 * DAY_MS;
const INVITATION_NOT_VALID =
  'This invitation is not valid any more: it was used, withdrawn or has expired. Ask for a new one.';

const toInvitation = (r: PackInvitationRow): PackInvitation => ({
  id: r.id,
  email: r.email,
  role: r.role,
  until: r.until,
  created_at: r.created_at,
  expires_at: r.expires_at,
});

/**
 * The pack (docs/pack.md): an owner invites people to a pet by e-mail, as co-owner or
 * caregiver, optionally until a date; the invitation's link works once, for a week, for an
 * account with the invited address. The owner sees the pack and removes anyone; anyone leaves.
 * A change ends the member's live streams, which reconnect seeing what they may now see.
 */
export class PackService {
  constructor(
    private readonly d: {
      db: Kysely<Database>;
      pack: PackRepository;
      dogs: DogsRepository;
      outbox: OutboxRepository;
      pets: PetAccess;
      clock: Clock;
      publicUrl: string;
      mailWorker: MailKick;
      /** Ends a person's live streams on every instance (they reconnect with their new rights). */
      closeStreams: (userId: string) => void;
      /** Invitation mails a person may send an hour, withdrawn ones included (RES-5). */
      inviteLimit: FixedWindowLimit;
    },
  ) {}

  private now(): Date {
    return this.d.clock.now();
  }

  /** The pet and what `actor` is to it; a pet they may not see is not found. */
  private async seen(actor: User, dogId: string) {
    const [dog, access] = await Promise.all([
      this.d.dogs.findById(dogId),
      this.d.pets.dog(actor.id, dogId),
    ]);
    if (!dog || !access) throw new NotFoundError(DOG_NOT_FOUND);
    return { dog, access };
  }

  /** The pet's pack as `actor` sees it: everyone sees who is in it; the owner its invitations. */
  async get(actor: User, dogId: string): Promise<Pack> {
    const { dog, access } = await this.seen(actor, dogId);
    const now = this.now();
    const [members, invitations, ownerName] = await Promise.all([
      this.d.pack.members(dogId),
      access === 'owner' ? this.d.pack.openInvitations(dogId, now.toISOString()) : [],
      this.d.dogs.ownerName(dog.user_id),
    ]);
    return {
      dog_id: dog.id,
      dog_name: dog.name,
      owner: { user_id: dog.user_id, name: ownerName ?? '' },
      access,
      members: members.map((m) => ({
        user_id: m.user_id,
        name: m.name,
        // Addresses are the owner's to see, and each member's own (AC-6).
        email: access === 'owner' || m.user_id === actor.id ? m.email : null,
        role: m.role,
        until: m.until,
        active: packActive(m.until, now),
        joined_at: m.created_at,
      })),
      invitations: invitations.map(toInvitation),
    };
  }

  /** The owner invites someone by e-mail; the link goes in a mail, queued with the invitation. */
  async invite(actor: User, dogId: string, input: PackInvitationInput): Promise<PackInvitation> {
    const { dog, access } = await this.seen(actor, dogId);
    if (access !== 'owner') throw new ForbiddenError("Only the pet's owner can invite people");
    const now = this.now();
    // Each sends a mail to an address of the caller's choosing.
    this.d.inviteLimit.take(actor.id, now.getTime());
    const email = input.email.trim().toLowerCase();
    const until = input.until ? new Date(input.until).toISOString() : null;
    if (until !== null && !packActive(until, now))
      throw new BadRequestError('until must be later than now');
    if (until !== null && Date.parse(until) > now.getTime() + MAX_UNTIL_MS)
      throw new BadRequestError(
        'until must be within a year: share for longer without an end date',
      );
    if (email === actor.email.toLowerCase())
      throw new BadRequestError('You own this pet already: invite someone else');
    const members = await this.d.pack.members(dogId);
    if (members.some((m) => m.email.toLowerCase() === email))
      throw new ConflictError(`${email} is in ${dog.name}'s pack already`);
    if ((await this.d.pack.size(dogId, now.toISOString())) >= PACK_MAX)
      throw new ConflictError(`A pack has at most ${PACK_MAX} people and open invitations`);
    const token = randomBytes(32).toString('base64url');
    const row: PackInvitationRow = {
      id: randomUUID(),
      dog_id: dogId,
      email,
      role: input.role,
      until,
      token_hash: sha256(token),
      invited_by: actor.id,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + PACK_INVITATION_DAYS * DAY_MS).toISOString(),
      accepted_at: null,
      accepted_by: null,
      revoked_at: null,
    };
    await this.d.db.transaction().execute(async (trx) => {
      await this.d.pack.insertInvitation(row, trx);
      await this.d.outbox.enqueue(
        packInvitationMail({
          invitationId: row.id,
          to: email,
          inviter: actor.name,
          dogName: dog.name,
          role: PACK_ROLE_LABELS[input.role],
          until,
          link: `${this.d.publicUrl}${PACK_JOIN_PAGE}#${token}`,
          expiresDays: PACK_INVITATION_DAYS,
        }),
        now.toISOString(),
        trx,
      );
    });
    this.d.mailWorker.kick();
    return toInvitation(row);
  }

  /** The owner withdraws an open invitation. */
  async revoke(actor: User, dogId: string, invitationId: string): Promise<void> {
    const { access } = await this.seen(actor, dogId);
    if (access !== 'owner')
      throw new ForbiddenError("Only the pet's owner can withdraw invitations");
    if (!(await this.d.pack.revokeInvitation(dogId, invitationId, this.now().toISOString())))
      throw new NotFoundError('Invitation not found');
  }

  /** An invitation that may still be accepted, by its link's token; else 404 with why. */
  private async open(token: string): Promise<PackInvitationRow> {
    const row = await this.d.pack.invitationByHash(sha256(token));
    if (!row) throw new NotFoundError('This invitation link is not valid.');
    if (row.accepted_at || row.revoked_at || row.expires_at <= this.now().toISOString())
      throw new NotFoundError(INVITATION_NOT_VALID);
    return row;
  }

  /** What an invitation's link shows before it is accepted (the token is the credential). */
  async preview(token: string): Promise<PackInvitationPreview> {
    const row = await this.open(token);
    const [dog, inviter] = await Promise.all([
      this.d.dogs.findById(row.dog_id),
      this.d.dogs.ownerName(row.invited_by),
    ]);
    if (!dog) throw new NotFoundError(INVITATION_NOT_VALID);
    return {
      dog_name: dog.name,
      inviter_name: inviter ?? '',
      role: row.role,
      until: row.until,
      email: row.email,
      expires_at: row.expires_at,
    };
  }

  /**
   * The signed-in person accepts: the invitation must be open and sent to their address; it is
   * spent once (a second accept, or a race of two, finds it spent). Answers the pet as they now
   * see it.
   */
  async accept(actor: User, token: string): Promise<Dog> {
    const row = await this.open(token);
    if (row.email !== actor.email.toLowerCase())
      throw new ForbiddenError(
        `This invitation was sent to ${row.email}. Sign in with that address to accept it.`,
      );
    const dog = await this.d.dogs.findById(row.dog_id);
    if (!dog) throw new NotFoundError(INVITATION_NOT_VALID);
    if (dog.user_id === actor.id) throw new ConflictError('You own this pet already');
    if (row.until !== null && !packActive(row.until, this.now()))
      throw new NotFoundError(INVITATION_NOT_VALID);
    const at = this.now().toISOString();
    const spent = await this.d.db.transaction().execute(async (trx) => {
      if (!(await this.d.pack.spendInvitation(row.id, actor.id, at, trx))) return false;
      await this.d.pack.addMember(
        { dog_id: row.dog_id, user_id: actor.id, role: row.role, until: row.until, created_at: at },
        trx,
      );
      return true;
    });
    if (!spent) throw new NotFoundError(INVITATION_NOT_VALID);
    this.d.closeStreams(actor.id);
    return toDog(dog, row.role, (await this.d.dogs.ownerName(dog.user_id)) ?? null);
  }

  /**
   * The owner removes anyone from the pack; a member removes themselves (leaves), even one
   * whose `until` has passed.
   */
  async remove(actor: User, dogId: string, userId: string): Promise<void> {
    if (userId === actor.id) {
      if (!(await this.d.pack.removeMember(dogId, userId))) throw new NotFoundError(DOG_NOT_FOUND);
      this.d.closeStreams(userId);
      return;
    }
    const { access } = await this.seen(actor, dogId);
    if (access !== 'owner' && userId !== actor.id)
      throw new ForbiddenError("Only the pet's owner can remove someone else from its pack");
    if (!(await this.d.pack.removeMember(dogId, userId)))
      throw new NotFoundError('Not in this pet’s pack');
    this.d.closeStreams(userId);
  }
}
