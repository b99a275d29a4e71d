import { hash, randomBytes, randomUUID } from 'node:crypto';
import type { PackRole } from '@pawguard/shared';
import type { TestApp } from './app.js';

/**
 * An open invitation to a pet's pack, written as the invite call writes it; answers its link's
 * token (which the invite call puts only in its mail).
 */
export async function packInvitation(
  t: TestApp,
  p: {
    dogId: string;
    invitedBy: string;
    email: string;
    role?: PackRole;
    until?: string | null;
    /** How long the link works from now (default: the week an invitation has). */
    validMs?: number;
  },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = t.clock.now();
  await t.app.container.repos.pack.insertInvitation({
    id: randomUUID(),
    dog_id: p.dogId,
    email: p.email.toLowerCase(),
    role: p.role ?? 'caregiver',
    until: p.until ?? null,
    token_hash: hash('sha256', token, 'hex'),
    invited_by: p.invitedBy,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + (p.validMs ?? 7 * 86_400_000)).toISOString(),
    accepted_at: null,
    accepted_by: null,
    revoked_at: null,
  });
  return token;
}

/** Puts `userId` in a pet's pack directly (as an accepted invitation leaves them). */
export async function joinPack(
  t: TestApp,
  p: { dogId: string; userId: string; role: PackRole; until?: string | null },
): Promise<void> {
  await t.app.container.repos.pack.addMember({
    dog_id: p.dogId,
    user_id: p.userId,
    role: p.role,
    until: p.until ?? null,
    created_at: t.clock.now().toISOString(),
  });
}
