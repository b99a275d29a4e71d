import { profileResponseSchema, type User } from '@pawguard/shared';
import { api } from '@/lib/api-client';

export async function getProfile(signal?: AbortSignal): Promise<User> {
  const { user } = await api.get('/auth/profile', profileResponseSchema, signal);
  return user;
}
