/**
 * The session token lives in localStorage under `auth_token` (spec section 9). Listeners
 * hear when the api-client drops it after a 401, so the session can end in the UI too.
 */
import { clearEarlyResponses } from '@/lib/early-requests';

export const AUTH_TOKEN_KEY = 'auth_token';

type Listener = () => void;
const expiredListeners = new Set<Listener>();

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // Storage can throw (privacy modes, sandboxed frames); behave as signed out.
    return null;
  }
}

export const authToken = {
  get(): string | null {
    return storage()?.getItem(AUTH_TOKEN_KEY) ?? null;
  },
  // A new session, or none: what was asked early for the old one is forgotten.
  set(token: string): void {
    clearEarlyResponses();
    storage()?.setItem(AUTH_TOKEN_KEY, token);
  },
  clear(): void {
    clearEarlyResponses();
    storage()?.removeItem(AUTH_TOKEN_KEY);
  },
  /** The server refused the token: clear it and tell whoever holds the session. */
  expire(): void {
    clearEarlyResponses();
    storage()?.removeItem(AUTH_TOKEN_KEY);
    for (const listener of expiredListeners) listener();
  },
  onExpired(listener: Listener): () => void {
    expiredListeners.add(listener);
    return () => expiredListeners.delete(listener);
  },
};
