/**
 * The session token lives in localStorage under `auth_token` (spec section 9). Listeners
 * hear when the api-client drops it after a 401, or another tab ends the session, so the
 * session can end in the UI too.
 */
import { clearEarlyResponses } from '@/lib/early-requests';

export const AUTH_TOKEN_KEY = 'auth_token';

type Listener = () => void;
const expiredListeners = new Set<Listener>();

/**
 * The token this tab's session uses (sign-in, or a restored session, holds it), or null when
 * the tab is signed out. Kept apart from storage, which every tab of the app shares: when
 * another tab logs out, storage loses the token and this tab still knows it had a session.
 */
let held: string | null = null;

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // Storage can throw (privacy modes, sandboxed frames); behave as signed out.
    return null;
  }
}

function endHeldSession(): void {
  held = null;
  clearEarlyResponses();
  for (const listener of expiredListeners) listener();
}

export const authToken = {
  get(): string | null {
    return storage()?.getItem(AUTH_TOKEN_KEY) ?? null;
  },
  // A new session, or none: what was asked early for the old one is forgotten.
  set(token: string): void {
    clearEarlyResponses();
    storage()?.setItem(AUTH_TOKEN_KEY, token);
    held = token;
  },
  clear(): void {
    clearEarlyResponses();
    storage()?.removeItem(AUTH_TOKEN_KEY);
    held = null;
  },
  /** The stored token was accepted (a restored session): this tab's session now uses it. */
  hold(token: string): void {
    held = token;
  },
  /** The token this tab's session uses, even once another tab has removed it from storage. */
  held(): string | null {
    return held;
  },
  /** The server refused the token: clear it and tell whoever holds the session. */
  expire(): void {
    storage()?.removeItem(AUTH_TOKEN_KEY);
    endHeldSession();
  },
  onExpired(listener: Listener): () => void {
    expiredListeners.add(listener);
    return () => expiredListeners.delete(listener);
  },
};

/**
 * Another tab logged out, or its session was refused (storage lost the token), or another
 * account signed in there (storage holds another token): this tab's session has ended too
 * (spec §4 and the 401 rule of §8, in every tab). The storage event reaches every other tab of
 * the origin; this tab's own changes never raise it here.
 */
function onOtherTabChange(event: StorageEvent): void {
  if (event.key !== null && event.key !== AUTH_TOKEN_KEY) return;
  if (held === null || authToken.get() === held) return;
  endHeldSession();
}

if (typeof window !== 'undefined') window.addEventListener('storage', onOtherTabChange);
