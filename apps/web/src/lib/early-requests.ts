import { env } from '@/config/env';

/**
 * A returning visitor's first calls, started before the app needs them so they travel beside
 * its code instead of waiting for it: otherwise the session is restored, the signed-in shell
 * and the screen's code arrive, and only then would the screen ask. public/session-hint.js
 * starts them as the page loads; startEarlyRequests adds any it did not. The api-client takes
 * each answer once, for a GET of the same path with the same token made soon after; any
 * other call asks the server afresh. In memory only (SESS-9).
 */
const FRESH_FOR_MS = 30_000;

type EarlyResponse = { token: string; startedAt: number; response: Promise<Response> };

const early = new Map<string, EarlyResponse>();
let expiry: ReturnType<typeof setTimeout> | undefined;

/**
 * Forgets every early answer: a sign-in, a sign-out, a refused token and any change the user
 * makes (a non-GET) end what they were good for; and none outlives FRESH_FOR_MS.
 */
export function clearEarlyResponses(): void {
  early.clear();
  clearTimeout(expiry);
  expiry = undefined;
}

function expireSoon(): void {
  expiry ??= setTimeout(clearEarlyResponses, FRESH_FOR_MS);
}

/** What public/session-hint.js leaves for the app: the token it used and each answer. */
type HintRequests = {
  token: string;
  startedAt: number;
  responses: Record<string, Promise<Response>>;
};

const scope = globalThis as { pawguardEarlyRequests?: HintRequests };
const hinted = scope.pawguardEarlyRequests;
delete scope.pawguardEarlyRequests;
if (hinted) {
  for (const [path, response] of Object.entries(hinted.responses))
    early.set(path, { token: hinted.token, startedAt: hinted.startedAt, response });
  expireSoon();
}

/** GETs `/api{path}` for each path with this token, unless already started. */
export function startEarlyRequests(token: string, paths: readonly string[]): void {
  for (const path of paths) {
    if (early.get(path)?.token === token) continue;
    const response = fetch(`${env.apiBaseUrl}${path}`, {
      headers: { Accept: 'application/json', Authorization: `Bearer ${token}` },
    });
    // A failure is the taker's to report; one nobody takes is nobody's.
    response.catch(() => undefined);
    early.set(path, { token, startedAt: Date.now(), response });
  }
  expireSoon();
}

/** The early answer to GET `path` made with `token`, once; undefined when there is none. */
export function takeEarlyResponse(
  path: string,
  token: string | null,
): Promise<Response> | undefined {
  const found = early.get(path);
  if (!found) return undefined;
  early.delete(path);
  if (found.token !== token || Date.now() - found.startedAt > FRESH_FOR_MS) return undefined;
  return found.response;
}
