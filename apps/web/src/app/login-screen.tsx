import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';

/**
 * The login screen has no URL (DESIGN §6): any page with a Login action opens it in place,
 * and its back action returns to the page underneath.
 */
type LoginScreenValue = { isOpen: boolean; open: () => void; close: () => void };

const LoginScreenContext = createContext<LoginScreenValue | null>(null);

export function LoginScreenProvider({ children }: { children: ReactNode }) {
  const [isOpen, setIsOpen] = useState(false);
  const value = useMemo(
    () => ({ isOpen, open: () => setIsOpen(true), close: () => setIsOpen(false) }),
    [isOpen],
  );
  return <LoginScreenContext.Provider value={value}>{children}</LoginScreenContext.Provider>;
}

export function useLoginScreen(): LoginScreenValue {
  const value = useContext(LoginScreenContext);
  if (!value) throw new Error('useLoginScreen must be used inside <LoginScreenProvider>');
  return value;
}
