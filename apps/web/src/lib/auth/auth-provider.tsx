import {
  startTransition,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { LoginInput, ProfilePreferencesInput, RegisterInput, User } from '@pawguard/shared';
import { authToken } from '@/lib/auth-token';
import { AuthContext, type AuthContextValue, type SessionStatus } from './auth-context';

const sessionApi = () => import('./session-api');

type State = {
  user: User | null;
  status: SessionStatus;
  sessionEnded: boolean;
  sessionKey: string;
};

let sessions = 0;
const nextSessionKey = () => `session-${++sessions}`;

function initialState(): State {
  return {
    user: null,
    status: authToken.get() ? 'loading' : 'signed-out',
    sessionEnded: false,
    sessionKey: 'signed-out',
  };
}

/** Spec section 4: restore the stored session, then keep token and user in step. */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<State>(initialState);
  const [pendingActions, setPendingActions] = useState(0);
  const [confirmationPending, setConfirmationPending] = useState(false);

  useEffect(() => {
    const token = authToken.get();
    if (!token) return;
    const controller = new AbortController();
    sessionApi()
      .then(({ getProfile }) => getProfile(controller.signal))
      .then((user) => {
        authToken.hold(token);
        // A transition: React renders the signed-in app in slices, yielding to the browser
        // between them, instead of in one long task on a slow phone (the loader stays until
        // it is ready).
        startTransition(() =>
          setState({
            user,
            status: 'signed-in',
            sessionEnded: false,
            sessionKey: nextSessionKey(),
          }),
        );
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.warn('Could not restore the session', error);
        authToken.clear();
        setState({
          user: null,
          status: 'signed-out',
          sessionEnded: false,
          sessionKey: 'signed-out',
        });
      });
    return () => controller.abort();
  }, []);

  // The account's time zone and units default to the browser's (DESIGN §3 "Display"): sent
  // once, for whichever the server has none of, so mails name times on the owner's clock and
  // temperatures in their order, and the daily digest comes at 08:00 there.
  const signedInUser = state.status === 'signed-in' ? state.user : null;
  const lacksPreferences =
    signedInUser !== null &&
    (signedInUser.time_zone === null ||
      signedInUser.temperature_unit === null ||
      signedInUser.weight_unit === null);
  // A browser zone the server refused (its own list of zones may differ): not sent again.
  const refusedZone = useRef<string | null>(null);
  useEffect(() => {
    if (!lacksPreferences) return;
    let current = true;
    sessionApi()
      .then(async ({ missingPreferences, savePreferences }) => {
        const found = missingPreferences(signedInUser!);
        if (!found) return;
        const { time_zone: zone, ...units } = found;
        const missing: ProfilePreferencesInput =
          zone !== undefined && zone === refusedZone.current ? units : found;
        if (Object.keys(missing).length === 0) return;
        let user: User;
        try {
          user = await savePreferences(missing);
        } catch (error) {
          // The units are stored all the same when the server refuses the zone (a 400).
          const refused = (error as { status?: unknown }).status === 400;
          if (!refused || missing.time_zone === undefined) throw error;
          refusedZone.current = missing.time_zone;
          if (Object.keys(units).length === 0) throw error;
          user = await savePreferences(units);
        }
        if (current)
          setState((previous) =>
            previous.user?.id === user.id ? { ...previous, user } : previous,
          );
      })
      .catch((error: unknown) => console.warn('Could not store the display preferences', error));
    return () => {
      current = false;
    };
  }, [lacksPreferences, signedInUser]);

  const savePreferences = useCallback(
    (input: ProfilePreferencesInput) =>
      sessionApi()
        .then(({ savePreferences: save }) => save(input))
        .then((user) => {
          setState((previous) =>
            previous.user?.id === user.id ? { ...previous, user } : previous,
          );
          return user;
        }),
    [],
  );

  useEffect(
    () =>
      authToken.onExpired(() => {
        setConfirmationPending(false);
        setState((previous) => ({
          user: null,
          status: 'signed-out',
          sessionEnded: previous.status === 'signed-in',
          sessionKey: 'signed-out',
        }));
      }),
    [],
  );

  const track = useCallback(async <T,>(action: () => Promise<T>): Promise<T> => {
    setPendingActions((n) => n + 1);
    try {
      return await action();
    } finally {
      setPendingActions((n) => n - 1);
    }
  }, []);

  const signIn = useCallback((token: string, user: User) => {
    authToken.set(token);
    // A fresh key gives the new session an empty query cache.
    setState({ user, status: 'signed-in', sessionEnded: false, sessionKey: nextSessionKey() });
  }, []);

  const login = useCallback(
    (input: LoginInput) =>
      track(async () => {
        const { login: loginCall } = await sessionApi();
        const { token, user } = await loginCall(input);
        signIn(token, user);
        return user;
      }),
    [signIn, track],
  );

  const register = useCallback(
    (input: RegisterInput) =>
      track(async () => {
        const { register: registerCall } = await sessionApi();
        const { token, user } = await registerCall(input);
        signIn(token, user);
        setConfirmationPending(true);
        return user;
      }),
    [signIn, track],
  );

  const logout = useCallback(
    () =>
      track(async () => {
        try {
          if (authToken.get()) await (await sessionApi()).logout();
        } catch (error) {
          // The local session ends regardless; the server forgets the token at its expiry.
          console.warn('Logout call failed', error);
        } finally {
          authToken.clear();
          setConfirmationPending(false);
          setState({
            user: null,
            status: 'signed-out',
            sessionEnded: false,
            sessionKey: 'signed-out',
          });
        }
      }),
    [track],
  );

  const dismissConfirmationNotice = useCallback(() => setConfirmationPending(false), []);

  const value = useMemo<AuthContextValue>(() => {
    const role = state.user?.role ?? null;
    return {
      user: state.user,
      status: state.status,
      isInitializing: state.status === 'loading',
      isLoading: pendingActions > 0,
      sessionEnded: state.sessionEnded,
      sessionKey: state.sessionKey,
      confirmationPending,
      role,
      isAdmin: role === 'admin',
      isUser: role === 'user',
      login,
      register,
      logout,
      savePreferences,
      dismissConfirmationNotice,
    };
  }, [
    savePreferences,
    state,
    pendingActions,
    confirmationPending,
    login,
    register,
    logout,
    dismissConfirmationNotice,
  ]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
