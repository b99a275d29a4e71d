import { z } from 'zod';
import { LIMITS, requiredAs } from './common.js';

/**
 * The pack (docs/pack.md): the people who share a pet with its owner. A co-owner sees and
 * manages the pet and its collars and gets its alerts; a caregiver sees the pet's live state
 * and alerts and may acknowledge and resolve them, nothing else. Either may be given until a
 * date (a sitter for a week): from then on they see nothing of it.
 */
export const PACK_ROLES = ['co_owner', 'caregiver'] as const;
export type PackRole = (typeof PACK_ROLES)[number];
/** What a person is to a pet: its owner, or a member of its pack. */
export type PetAccess = 'owner' | PackRole;

export const PACK_ROLE_LABELS: Record<PetAccess, string> = {
  owner: 'Owner',
  co_owner: 'Co-owner',
  caregiver: 'Caregiver',
};

/** An invitation's link works this long, once (like the e-mail confirmation link). */
export const PACK_INVITATION_DAYS = 7;
/** A pack has at most this many members and open invitations together. */
export const PACK_MAX = 20;

/** Whether a membership (or an invitation's) `until` still lets its person in at `now`. */
export function packActive(until: string | null, now: Date): boolean {
  return until === null || Date.parse(until) > now.getTime();
}

/** What an owner may do with a pet, by what the person is to it (PACK-1). */
export const PET_RIGHTS: Record<
  PetAccess,
  { see: true; acknowledge: true; manage: boolean; share: boolean; remove: boolean }
> = {
  owner: { see: true, acknowledge: true, manage: true, share: true, remove: true },
  co_owner: { see: true, acknowledge: true, manage: true, share: false, remove: false },
  caregiver: { see: true, acknowledge: true, manage: false, share: false, remove: false },
};

const untilSchema = z
  .string({ error: 'until must be a date' })
  .refine((v) => !Number.isNaN(Date.parse(v)), { error: 'until must be a date (ISO-8601)' })
  .nullish();

export const packInvitationInputSchema = z.strictObject({
  email: z
    .string({ error: requiredAs('email is required', 'email must be text') })
    .trim()
    .min(1, { error: 'email is required' })
    .max(LIMITS.email, { error: `email must be at most ${LIMITS.email} characters` })
    .pipe(z.email({ error: 'email must be a valid e-mail address' })),
  role: z.enum(PACK_ROLES, {
    error: requiredAs('role is required', 'role must be co_owner or caregiver'),
  }),
  /** Until when (ISO-8601); omitted or null: until removed. */
  until: untilSchema,
});
export type PackInvitationInput = z.infer<typeof packInvitationInputSchema>;

export const packMemberSchema = z.object({
  user_id: z.string(),
  name: z.string(),
  /** Only the owner sees members' addresses (and a member their own); null otherwise. */
  email: z.string().nullable(),
  role: z.enum(PACK_ROLES),
  until: z.string().nullable(),
  /** False once `until` has passed: kept in the list for the owner, seeing nothing. */
  active: z.boolean(),
  joined_at: z.string(),
});
export type PackMember = z.infer<typeof packMemberSchema>;

export const packInvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(PACK_ROLES),
  until: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
});
export type PackInvitation = z.infer<typeof packInvitationSchema>;

export const packSchema = z.object({
  dog_id: z.string(),
  dog_name: z.string(),
  owner: z.object({ user_id: z.string(), name: z.string() }),
  /** What the caller is to this pet. */
  access: z.enum(['owner', ...PACK_ROLES]),
  members: z.array(packMemberSchema),
  /** Open invitations: the owner's to see and revoke (empty for anyone else). */
  invitations: z.array(packInvitationSchema),
});
export type Pack = z.infer<typeof packSchema>;
export const packResponseSchema = z.object({ pack: packSchema });
export const packInvitationResponseSchema = z.object({ invitation: packInvitationSchema });

export const packMemberParamsSchema = z.strictObject({
  id: z.uuid({ error: 'id must be a valid id' }),
  userId: z.uuid({ error: 'userId must be a valid id' }),
});
export const packInvitationParamsSchema = z.strictObject({
  id: z.uuid({ error: 'id must be a valid id' }),
  invitationId: z.uuid({ error: 'invitationId must be a valid id' }),
});

/** An invitation's link: the token follows /pack/join# in the fragment (never logged). */
export const PACK_JOIN_PAGE = '/pack/join';
export const packTokenInputSchema = z.strictObject({
  token: z
    .string({ error: 'token is required' })
    .min(1, { error: 'token is required' })
    .max(200, { error: 'This invitation link is not valid.' }),
});

/** What an invitation's link shows before it is accepted (the token is the credential). */
export const packInvitationPreviewSchema = z.object({
  dog_name: z.string(),
  inviter_name: z.string(),
  role: z.enum(PACK_ROLES),
  until: z.string().nullable(),
  email: z.string(),
  expires_at: z.string(),
});
export const packInvitationPreviewResponseSchema = z.object({
  invitation: packInvitationPreviewSchema,
});
export type PackInvitationPreview = z.infer<typeof packInvitationPreviewSchema>;
