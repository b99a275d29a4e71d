export const PET_AVATARS = ['🐕', '🐶', '🦮', '🐕‍🦺', '🐩', '🐾'] as const;

/** The pet's emoji: the sum of the id's UTF-16 code units, mod 6. */
export function petAvatar(petId: string): string {
  let sum = 0;
  for (let i = 0; i < petId.length; i++) sum += petId.charCodeAt(i);
  return PET_AVATARS[sum % PET_AVATARS.length]!;
}
