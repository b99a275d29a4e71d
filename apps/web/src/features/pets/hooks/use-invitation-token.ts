import { useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

/** Where the link's token waits while its person signs in or creates an account. */
export const INVITATION_TOKEN_KEY = 'pawguard.pack-invitation';

function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    // Storage refused (a privacy setting): the token lives in this page's memory only.
    return null;
  }
}

/**
 * An invitation link's token (`/pack/join#<token>`, docs/pack.md). It is taken from the
 * address once and kept in this tab's session storage, so it survives a sign-in or sign-up
 * (and a reload), and the address bar loses it at once: it is a credential, and a copied or
 * shared address should not carry it. `forget` drops it once it is spent or refused.
 */
export function useInvitationToken(): { token: string | null; forget: () => void } {
  const location = useLocation();
  const navigate = useNavigate();
  const fromAddress = location.hash.length > 1 ? location.hash.slice(1) : null;
  const [token, setToken] = useState<string | null>(
    () => fromAddress ?? storage()?.getItem(INVITATION_TOKEN_KEY) ?? null,
  );
  // A second link opened in the same tab replaces the first.
  if (fromAddress !== null && fromAddress !== token) setToken(fromAddress);

  useEffect(() => {
    if (fromAddress === null) return;
    try {
      storage()?.setItem(INVITATION_TOKEN_KEY, fromAddress);
    } catch {
      // Full or refused: kept in memory for this visit.
    }
    // Through the router (history.replaceState underneath), so its idea of the address is the
    // bar's: a later navigation to "this page" cannot put the token back.
    void navigate(
      { pathname: location.pathname, search: location.search },
      { replace: true, state: location.state },
    );
  }, [fromAddress, location.pathname, location.search, location.state, navigate]);

  const forget = useCallback(() => storage()?.removeItem(INVITATION_TOKEN_KEY), []);
  return { token, forget };
}
