import { describe, expect, it } from 'vitest';
import { PET_AVATARS, petAvatar } from './avatar.js';

describe('pet avatar', () => {
  it('picks by the sum of UTF-16 code units mod 6', () => {
    // 'a' = 97 → 97 % 6 = 1
    expect(petAvatar('a')).toBe(PET_AVATARS[1]);
    // 'ab' = 97 + 98 = 195 → 195 % 6 = 3
    expect(petAvatar('ab')).toBe('🐕‍🦺');
  });
  it('is stable for the same id and always one of the six', () => {
    const id = '3f1c2a9e-7b41-4c7e-9d0a-5b2f6e8c1d34';
    expect(petAvatar(id)).toBe(petAvatar(id));
    expect(PET_AVATARS).toContain(petAvatar(id));
  });
});
