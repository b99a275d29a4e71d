import { existsSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubFetch } from '@/testing/fixtures';

// The module keeps its answers in module state: each test loads it afresh.
const load = () => import('./early-requests');

beforeEach(() => {
  vi.resetModules();
});
afterEach(() => {
  vi.useRealTimers();
  delete (globalThis as { pawguardEarlyRequests?: unknown }).pawguardEarlyRequests;
});

describe('early requests', () => {
  it('asks once per path with the token, and gives each answer once, for that token only', async () => {
    const calls = stubFetch({ 'GET /api/dogs': () => jsonResponse(200, { dogs: [], total: 0 }) });
    const { startEarlyRequests, takeEarlyResponse } = await load();

    startEarlyRequests('token-a', ['/dogs']);
    startEarlyRequests('token-a', ['/dogs']);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.init.headers).toMatchObject({ Authorization: 'Bearer token-a' });

    expect(takeEarlyResponse('/devices', 'token-a')).toBeUndefined();
    expect(takeEarlyResponse('/dogs', 'token-b')).toBeUndefined();
    // Offered to another token, the answer is gone rather than kept for later.
    expect(takeEarlyResponse('/dogs', 'token-a')).toBeUndefined();

    startEarlyRequests('token-a', ['/dogs']);
    const response = await takeEarlyResponse('/dogs', 'token-a');
    expect(await response?.json()).toEqual({ dogs: [], total: 0 });
    expect(takeEarlyResponse('/dogs', 'token-a')).toBeUndefined();
  });

  it('does not hand over an answer older than 30 s', async () => {
    vi.useFakeTimers();
    stubFetch({ 'GET /api/dogs': () => jsonResponse(200, { dogs: [], total: 0 }) });
    const { startEarlyRequests, takeEarlyResponse } = await load();
    startEarlyRequests('token-a', ['/dogs']);
    vi.advanceTimersByTime(30_001);
    expect(takeEarlyResponse('/dogs', 'token-a')).toBeUndefined();
  });

  it('takes over the requests public/session-hint.js started, without asking again', async () => {
    const calls = stubFetch({});
    const profile = Promise.resolve(jsonResponse(200, { user: { name: 'Riley' } }));
    (globalThis as { pawguardEarlyRequests?: unknown }).pawguardEarlyRequests = {
      token: 'token-a',
      startedAt: Date.now(),
      responses: { '/auth/profile': profile },
    };
    const { startEarlyRequests, takeEarlyResponse } = await load();
    expect(globalThis).not.toHaveProperty('pawguardEarlyRequests');

    startEarlyRequests('token-a', ['/auth/profile']);
    expect(calls).toHaveLength(0);
    expect(takeEarlyResponse('/auth/profile', 'token-a')).toBe(profile);
  });

  it('forgets every answer when the session changes or ends, and after a change the user makes', async () => {
    stubFetch({
      'GET /api/dogs': () => jsonResponse(200, { dogs: [], total: 0 }),
      'DELETE /api/dogs/1': () => jsonResponse(200, { success: true }),
    });
    const { startEarlyRequests, takeEarlyResponse } = await load();
    const { authToken } = await import('./auth-token');
    const { apiRequest } = await import('./api-client');
    const ends = [
      () => authToken.set('token-b'),
      () => authToken.clear(),
      () => authToken.expire(),
      () => apiRequest('/dogs/1', { method: 'DELETE' }),
    ];
    for (const end of ends) {
      authToken.set('token-a');
      startEarlyRequests('token-a', ['/dogs']);
      await end();
      expect(takeEarlyResponse('/dogs', 'token-a')).toBeUndefined();
    }
  });

  it('keeps the answers through a call that changes nothing (a stream ticket)', async () => {
    stubFetch({
      'GET /api/dogs': () => jsonResponse(200, { dogs: [], total: 0 }),
      'POST /api/stream/ticket': () => jsonResponse(200, { ticket: 't' }),
    });
    const { startEarlyRequests, takeEarlyResponse } = await load();
    const { authToken } = await import('./auth-token');
    const { apiRequest } = await import('./api-client');
    authToken.set('token-a');
    startEarlyRequests('token-a', ['/dogs']);
    await apiRequest('/stream/ticket', { method: 'POST', changesData: false });
    expect(takeEarlyResponse('/dogs', 'token-a')).toBeDefined();
  });

  it('keeps an answer for the next caller when the one asking has already given up', async () => {
    stubFetch({
      'GET /api/dogs': (init) => {
        if (init.signal?.aborted) throw new DOMException('Aborted', 'AbortError');
        return jsonResponse(200, { dogs: [], total: 0 });
      },
    });
    const { startEarlyRequests, takeEarlyResponse } = await load();
    const { authToken } = await import('./auth-token');
    const { apiRequest } = await import('./api-client');
    authToken.set('token-a');
    startEarlyRequests('token-a', ['/dogs']);
    const given = new AbortController();
    given.abort();
    await expect(apiRequest('/dogs', { signal: given.signal })).rejects.toThrow();
    expect(takeEarlyResponse('/dogs', 'token-a')).toBeDefined();
  });

  it('session-hint.js leaves nothing on window but the one object the app takes over', () => {
    localStorage.setItem('auth_token', 'secret-token');
    stubFetch({});
    const before = new Set(Object.keys(globalThis));
    const file = ['apps/web/public/session-hint.js', 'public/session-hint.js'].find(existsSync);
    const hint = readFileSync(file!, 'utf8');
    // Run as the browser runs a classic script: in the global scope.
    (0, eval)(hint);
    const added = Object.keys(globalThis).filter((k) => !before.has(k));
    expect(added).toEqual(['pawguardEarlyRequests']);
    expect(document.documentElement.hasAttribute('data-session')).toBe(true);
    document.documentElement.removeAttribute('data-session');
    localStorage.removeItem('auth_token');
  });
});
