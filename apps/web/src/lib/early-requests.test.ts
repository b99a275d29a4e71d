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
});
