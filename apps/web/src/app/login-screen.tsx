import { createContext, useContext, useMemo, useRef, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useHydrated } from '@/lib/use-hydrated';
import { preloadSignIn } from './screens';

/**
 * The login screen has no URL of its own (DESIGN §6): any page with a Login action opens it
 * in place, and its back action returns to the page underneath. Opening it adds a history
 * entry (same URL, marked in its state), so the browser's Back closes it too.
 */
export type LoginScreenMode = 'sign-in' | 'sign-up';

type LoginScreenValue = {
  isOpen: boolean;
  open: () => void;
  /**
   * Opens it in a given mode, its Email filled in (an invitation's link: create the account
   * with, or sign in as, the invited address).
   */
  openAs: (mode: LoginScreenMode, email?: string) => void;
  /** The mode and address it was opened with (sign-in and none unless openAs said). */
  mode: LoginScreenMode;
  email: string | undefined;
  close: () => void;
  /**
   * A visitor is about to open it (points at, focuses or touches Login): its code, and that of
   * the signed-in page it leads to, start loading, so neither waits behind a loader.
   */
  prepare: () => void;
};

const LoginScreenContext = createContext<LoginScreenValue | null>(null);

type LoginScreenState = {
  loginScreen?: boolean;
  loginMode?: LoginScreenMode;
  loginEmail?: string;
} | null;

export function LoginScreenProvider({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  // The history entry's state survives a reload, but the prerendered HTML hydrated then is
  // the page underneath: an entry marked open opens the screen just after hydration, so the
  // first render matches that HTML (React error #418 otherwise).
  const hydrated = useHydrated();
  const state = location.state as LoginScreenState;
  const isOpen = hydrated && state?.loginScreen === true;
  // Whether this page pushed the open entry. After a reload (or a link) that lands on an
  // open login screen there is no entry of ours underneath: Back would leave the site.
  const pushedHere = useRef(false);
  const mode = state?.loginMode ?? 'sign-in';
  const email = state?.loginEmail;
  const value = useMemo(() => {
    const openWith = (opened: NonNullable<LoginScreenState>) => {
      if (isOpen) return;
      preloadSignIn(location.pathname);
      pushedHere.current = true;
      void navigate(location, { state: opened });
    };
    return {
      isOpen,
      mode,
      email,
      prepare: () => preloadSignIn(location.pathname),
      open: () => openWith({ loginScreen: true }),
      openAs: (as: LoginScreenMode, address?: string) =>
        openWith({ loginScreen: true, loginMode: as, loginEmail: address }),
      // Back to the entry the login screen was opened from (its URL is the same), or, when
      // there is none of ours, the same page with the screen closed in place.
      close: () => {
        if (!isOpen) return;
        if (pushedHere.current) void navigate(-1);
        else void navigate(location, { replace: true, state: null });
        pushedHere.current = false;
      },
    };
  }, [isOpen, mode, email, location, navigate]);
  return <LoginScreenContext.Provider value={value}>{children}</LoginScreenContext.Provider>;
}

export function useLoginScreen(): LoginScreenValue {
  const value = useContext(LoginScreenContext);
  if (!value) throw new Error('useLoginScreen must be used inside <LoginScreenProvider>');
  return value;
}
