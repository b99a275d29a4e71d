import { authResponseSchema, type AuthResponse, type LoginInput } from '@pawguard/shared';
import { api } from '@/lib/api-client';

export function login(input: LoginInput): Promise<AuthResponse> {
  return api.post('/auth/login', input, authResponseSchema);
}
