import { authResponseSchema, type AuthResponse, type RegisterInput } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { browserTimeZone, browserUnits } from './time-zone';

/**
 * Creates the account with the browser's time zone and units, so it needs no second call to
 * store them.
 */
export function register(input: RegisterInput): Promise<AuthResponse> {
  const timeZone = input.time_zone ?? browserTimeZone();
  return api.post(
    '/auth/register',
    { ...browserUnits(), ...input, ...(timeZone ? { time_zone: timeZone } : {}) },
    authResponseSchema,
  );
}
