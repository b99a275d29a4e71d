import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubFetch, type Routes } from '@/testing/fixtures';
import { FORGET_PUSH_TIMEOUT_MS, logout } from './logout';

const ENDPOINT = 'https://fcm.googleapis.com/fcm/send/this-browser';

/** A browser whose service worker holds a push subscription (or none). */
function pushBrowser({ subscribed = true } = {}) {
  const subscription = { endpoint: ENDPOINT, unsubscribe: vi.fn(async () => true) };
  const registration = {
    pushManager: { getSubscription: vi.fn(async () => (subscribed ? subscription : null)) },
  };
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { getRegistration: vi.fn(async () => registration) },
  });
  return subscription;
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'serviceWorker');
  vi.useRealTimers();
});

const LOGOUT = 'POST /api/auth/logout';
const FORGET = 'DELETE /api/push/subscriptions';
const ok: Routes = {
  [LOGOUT]: () => jsonResponse(200, { success: true }),
  [FORGET]: () => jsonResponse(200, { success: true }),
};
const made = (calls: { method: string; url: string }[]) => calls.map((c) => `${c.method} ${c.url}`);

describe('logging out', () => {
  it('first stops this browser’s pushes, at the server and in the browser, then ends the session', async () => {
    const subscription = pushBrowser();
    const calls = stubFetch(ok);
    await logout();
    expect(made(calls)).toEqual([FORGET, LOGOUT]);
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ endpoint: ENDPOINT });
    expect(subscription.unsubscribe).toHaveBeenCalledTimes(1);
  });

  it('only ends the session where this browser takes no pushes', async () => {
    pushBrowser({ subscribed: false });
    const calls = stubFetch(ok);
    await logout();
    expect(made(calls)).toEqual([LOGOUT]);
  });

  it('still drops the subscription in the browser, and logs out, when the server refuses to forget it', async () => {
    const subscription = pushBrowser();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const calls = stubFetch({ ...ok, [FORGET]: () => jsonResponse(500, { error: 'Boom' }) });
    await logout();
    expect(subscription.unsubscribe).toHaveBeenCalledTimes(1);
    expect(made(calls)).toEqual([FORGET, LOGOUT]);
  });

  it('does not wait long for a server that does not answer', async () => {
    pushBrowser();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.useFakeTimers();
    const calls = stubFetch({ ...ok, [FORGET]: () => new Promise<Response>(() => {}) });
    const done = logout();
    await vi.advanceTimersByTimeAsync(FORGET_PUSH_TIMEOUT_MS);
    await done;
    expect(made(calls)).toEqual([FORGET, LOGOUT]);
  });
});
