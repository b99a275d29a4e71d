import { PET_RIGHTS, type Device, type Dog, type PetAccess } from '@pawguard/shared';

/** What a person may do with a pet (docs/pack.md): see, acknowledge, manage, share, remove. */
export type PetRights = (typeof PET_RIGHTS)[PetAccess];

/** What the signed-in person may do with this pet, by what they are to it. */
export const petRights = (pet: Pick<Dog, 'access'>): PetRights => PET_RIGHTS[pet.access];

/**
 * What the signed-in person is to a collar. A collar's answer says nothing of it: their own
 * collar makes them its owner; one on a pet shared with them takes that pet's access (GET
 * /api/dogs). Null when neither is known: an admin looking at someone else's collar, or the
 * pets not loaded yet.
 */
export function collarAccess(
  device: Pick<Device, 'user_id' | 'dog_id'>,
  userId: string | undefined,
  pets: readonly Pick<Dog, 'id' | 'access'>[] | undefined,
): PetAccess | null {
  if (userId !== undefined && device.user_id === userId) return 'owner';
  if (device.dog_id === null) return null;
  return pets?.find((pet) => pet.id === device.dog_id)?.access ?? null;
}

/** The person's own pets: the only ones a collar can be registered to or moved to. */
export const ownPets = <P extends Pick<Dog, 'access'>>(pets: readonly P[]): P[] =>
  pets.filter((pet) => pet.access === 'owner');

const NO_RIGHTS = { see: false, acknowledge: false, manage: false, share: false, remove: false };

/** The rights `access` gives; none when it is not known (null). */
export const rightsOf = (
  access: PetAccess | null,
): { see: boolean; acknowledge: boolean; manage: boolean; share: boolean; remove: boolean } =>
  access ? PET_RIGHTS[access] : NO_RIGHTS;
