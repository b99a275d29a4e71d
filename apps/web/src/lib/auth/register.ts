import { authResponseSchema, type AuthResponse, type RegisterInput } from '@pawguard/shared';
import { api } from '@/lib/api-client';

export function register(input: RegisterInput): Promise<AuthResponse> {
  return api.post('/auth/register', input, authResponseSchema);
}
