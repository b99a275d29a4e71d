export { AuthProvider } from './auth-provider';
export { AuthContext, type AuthContextValue, type SessionStatus } from './auth-context';
export { useAuth } from './use-auth';
