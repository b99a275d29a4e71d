import { beforeEach, describe, expect, it, vi } from 'vitest';
import { profileResponseSchema } from '@pawguard/shared';
import { ApiError, api, apiRequest } from '@/lib/api-client';
import { AUTH_TOKEN_KEY, authToken } from '@/lib/auth-token';
import { jsonResponse } from '@/testing/fixtures';

const user = {
  id: 'u1',
  name: 'Riley',
  email: 'riley@example.com',
  role: 'user',
  time_zone: null,
  temperature_unit: null,
  weight_unit: null,
  created_at: '2025-01-01T00:00:00Z',
};

function mockFetch(response: Response | Error) {
  const fn = vi.fn(async () => {
    if (response instanceof Error) throw response;
    return response;
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

function sentHeaders(fn: ReturnType<typeof mockFetch>): Record<string, string> {
  const init = (fn.mock.calls[0] as unknown as [string, RequestInit])[1];
  return init.headers as Record<string, string>;
}

describe('api-client', () => {
  beforeEach(() => localStorage.clear());

  it('calls /api on the same origin and parses the answer with the given schema', async () => {
    const fetchMock = mockFetch(jsonResponse(200, { user, extra: 'ignored' }));
    const result = await api.get('/auth/profile', profileResponseSchema);
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/auth/profile',
      expect.objectContaining({ method: 'GET' }),
    );
    expect(result).toEqual({ user });
  });

  it('sends Content-Type only when there is a body', async () => {
    const withBody = mockFetch(jsonResponse(200, {}));
    await api.post('/auth/login', { email: 'a@b.c', password: 'x' });
    expect(sentHeaders(withBody)['Content-Type']).toBe('application/json');

    const withoutBody = mockFetch(jsonResponse(200, {}));
    await api.get('/dogs');
    expect(sentHeaders(withoutBody)).not.toHaveProperty('Content-Type');
  });

  it('sends the bearer token whenever one is stored, and none otherwise', async () => {
    const anonymous = mockFetch(jsonResponse(200, {}));
    await api.get('/dogs');
    expect(sentHeaders(anonymous)).not.toHaveProperty('Authorization');

    localStorage.setItem(AUTH_TOKEN_KEY, 'tok-1');
    const signedIn = mockFetch(jsonResponse(200, {}));
    await api.get('/dogs');
    expect(sentHeaders(signedIn).Authorization).toBe('Bearer tok-1');
  });

  it('turns a 401 on a call made with a token into the sign-in-again error and drops the token', async () => {
    localStorage.setItem(AUTH_TOKEN_KEY, 'expired');
    const expired = vi.fn();
    const unsubscribe = authToken.onExpired(expired);
    mockFetch(jsonResponse(401, { error: 'Token expired' }));

    const error = await api.get('/dogs').catch((e: unknown) => e);
    unsubscribe();

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      message: 'Authentication required. Please log in again.',
      status: 401,
    });
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
    expect(expired).toHaveBeenCalledOnce();
  });

  it('keeps the server message for a 401 on a call made without a token (a failed login)', async () => {
    const expired = vi.fn();
    const unsubscribe = authToken.onExpired(expired);
    mockFetch(jsonResponse(401, { error: 'Invalid email or password' }));

    await expect(
      api.post('/auth/login', { email: 'a@b.c', password: 'wrong' }),
    ).rejects.toMatchObject({
      message: 'Invalid email or password',
      status: 401,
    });
    unsubscribe();
    expect(expired).not.toHaveBeenCalled();
  });

  it('does not drop a newer token when an older call comes back 401', async () => {
    localStorage.setItem(AUTH_TOKEN_KEY, 'old');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        localStorage.setItem(AUTH_TOKEN_KEY, 'new');
        return jsonResponse(401, { error: 'Token expired' });
      }),
    );
    await expect(api.get('/dogs')).rejects.toMatchObject({ status: 401 });
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBe('new');
  });

  it("uses the server's error field for other failures", async () => {
    mockFetch(jsonResponse(409, { error: 'User with this email already exists' }));
    await expect(api.post('/auth/register', {})).rejects.toMatchObject({
      message: 'User with this email already exists',
      status: 409,
    });
  });

  it("falls back to 'Request failed' when the failure has no error field", async () => {
    mockFetch(new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(api.get('/dogs')).rejects.toMatchObject({
      message: 'Request failed',
      status: 502,
    });
  });

  it("reports 'Network error' when the request never reaches the server", async () => {
    mockFetch(new TypeError('Failed to fetch'));
    await expect(api.get('/dogs')).rejects.toMatchObject({ message: 'Network error', status: 0 });
  });

  it("treats an answer that breaks the contract as 'Request failed'", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch(jsonResponse(200, { user: { id: 1 } }));
    await expect(
      apiRequest('/auth/profile', { schema: profileResponseSchema }),
    ).rejects.toMatchObject({
      message: 'Request failed',
    });
  });
});
