import { profileResponseSchema, type User } from '@pawguard/shared';
import { api } from '@/lib/api-client';

/** The browser's IANA time zone (e.g. America/New_York), or null when it gives none. */
export function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/** Stores the account's time zone: mails name times in it, the daily digest goes at 08:00. */
export async function saveTimeZone(timeZone: string): Promise<User> {
  const { user } = await api.put(
    '/auth/profile/time-zone',
    { time_zone: timeZone },
    profileResponseSchema,
  );
  return user;
}
