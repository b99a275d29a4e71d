import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@pawguard/shared';
import { api } from '@/lib/api-client';
import { AUTH_TOKEN_KEY, authToken } from '@/lib/auth-token';
import { jsonResponse } from '@/testing/fixtures';

/** What another tab's change to the token looks like here: storage changed, then the event. */
function otherTab(newValue: string | null) {
  if (newValue === null) localStorage.removeItem(AUTH_TOKEN_KEY);
  else localStorage.setItem(AUTH_TOKEN_KEY, newValue);
  window.dispatchEvent(new StorageEvent('storage', { key: AUTH_TOKEN_KEY, newValue }));
}

describe('a session shared by the tabs of one browser', () => {
  afterEach(() => authToken.clear());

  it('ends in this tab when another tab logs out', () => {
    authToken.set('t1');
    const ended = vi.fn();
    const stop = authToken.onExpired(ended);
    otherTab(null);
    expect(ended).toHaveBeenCalledOnce();
    expect(authToken.held()).toBeNull();
    stop();
  });

  it('ends in this tab when another tab signs in as someone else', () => {
    authToken.set('t1');
    const ended = vi.fn();
    const stop = authToken.onExpired(ended);
    otherTab('t2');
    expect(ended).toHaveBeenCalledOnce();
    stop();
  });

  it('goes on when nothing changed for it, or this tab holds no session', () => {
    const ended = vi.fn();
    const stop = authToken.onExpired(ended);
    otherTab('t3'); // signed out here: another tab's sign-in ends nothing
    authToken.hold('t3');
    window.dispatchEvent(new StorageEvent('storage', { key: 'other-key', newValue: 'x' }));
    window.dispatchEvent(new StorageEvent('storage', { key: AUTH_TOKEN_KEY, newValue: 't3' }));
    expect(ended).not.toHaveBeenCalled();
    stop();
  });

  it('ends at a 401 on a call that went without a token because another tab had just logged out', async () => {
    authToken.set('t1');
    localStorage.removeItem(AUTH_TOKEN_KEY); // the storage event has not come yet
    const ended = vi.fn();
    const stop = authToken.onExpired(ended);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(401, { error: 'Authentication required' })),
    );
    await expect(api.post('/stream/ticket')).rejects.toMatchObject({
      message: MESSAGES.authRequired,
      status: 401,
    });
    expect(ended).toHaveBeenCalledOnce();
    stop();
  });
});
