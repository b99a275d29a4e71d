import { authResponseSchema, type AuthResponse, type RegisterInput } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { browserTimeZone } from './time-zone';

/** Creates the account with the browser's time zone, so it needs no second call to store it. */
export function register(input: RegisterInput): Promise<AuthResponse> {
  const timeZone = input.time_zone ?? browserTimeZone();
  return api.post(
    '/auth/register',
    timeZone ? { ...input, time_zone: timeZone } : input,
    authResponseSchema,
  );
}
