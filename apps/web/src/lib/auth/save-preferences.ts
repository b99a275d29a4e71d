import { profileResponseSchema, type ProfilePreferencesInput, type User } from '@pawguard/shared';
import { api } from '@/lib/api-client';

/**
 * Stores any of the account's display preferences (which temperature unit first, the weight
 * unit, the time zone): screens follow them, mails name temperatures in that order and times
 * in that zone.
 */
export async function savePreferences(input: ProfilePreferencesInput): Promise<User> {
  const { user } = await api.put('/auth/profile/preferences', input, profileResponseSchema);
  return user;
}
