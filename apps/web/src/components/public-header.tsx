import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LogIn } from 'lucide-react';
import { buttonVariants } from '@/components/ui/button-variants';
import { Logo } from '@/components/logo';
import { paths } from '@/config/paths';

type PublicHeaderProps = {
  onLogin: () => void;
  /** The visitor is about to press Login (pointer over it, focus, touch). */
  onLoginIntent?: () => void;
  children?: ReactNode;
};

/**
 * The signed-out header: the brand, optional links, and the Login action. A plain button with
 * the button classes, so the landing bundle needs no Button component (see button-variants).
 */
export function PublicHeader({ onLogin, onLoginIntent, children }: PublicHeaderProps) {
  return (
    <header className="sticky top-0 z-40 border-b bg-card/95 backdrop-blur supports-[backdrop-filter]:bg-card/80">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link to={paths.home} className="rounded-md" aria-label="PawGuard home">
          <Logo />
        </Link>
        <div className="flex items-center gap-2 sm:gap-4">
          {children}
          <button
            type="button"
            className={buttonVariants()}
            onClick={onLogin}
            onPointerEnter={onLoginIntent}
            onFocus={onLoginIntent}
            onTouchStart={onLoginIntent}
          >
            <LogIn aria-hidden="true" />
            Login
          </button>
        </div>
      </div>
    </header>
  );
}
