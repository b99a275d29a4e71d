import { createContext } from 'react';
import type {
  LoginInput,
  ProfilePreferencesInput,
  RegisterInput,
  Role,
  User,
} from '@pawguard/shared';

export type SessionStatus = 'loading' | 'signed-in' | 'signed-out';

export type AuthContextValue = {
  user: User | null;
  status: SessionStatus;
  /** True while the stored session is being restored on load. */
  isInitializing: boolean;
  /** True during a login, register or logout call. */
  isLoading: boolean;
  /** The session ended on its own (the server refused the token), not through Logout. */
  sessionEnded: boolean;
  /** Changes with every sign-in; keys per-session state such as the query cache. */
  sessionKey: string;
  /** Set after a sign-up until dismissed: the account waits for its e-mail confirmation. */
  confirmationPending: boolean;
  role: Role | null;
  isAdmin: boolean;
  isUser: boolean;
  login: (input: LoginInput) => Promise<User>;
  register: (input: RegisterInput) => Promise<User>;
  logout: () => Promise<void>;
  /** Stores display preferences (units, time zone) and takes the answered user as the session's. */
  savePreferences: (input: ProfilePreferencesInput) => Promise<User>;
  dismissConfirmationNotice: () => void;
};

export const AuthContext = createContext<AuthContextValue | null>(null);
