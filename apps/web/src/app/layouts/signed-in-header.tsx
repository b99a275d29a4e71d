import { useId, useRef, useState } from 'react';
import { Link, matchPath, useLocation } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { BellOff, BellRing, LogOut, Menu, X } from 'lucide-react';
import type { Role, User } from '@pawguard/shared';
import { Logo } from '@/components/logo';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';
import { getPreferencesQueryOptions } from '@/features/notifications/api/get-preferences';
import { NotificationBell } from '@/features/notifications/components/notification-bell';

/**
 * Spec section 9: the header polls every 10 s, so a session ended elsewhere ends here too and
 * the badge follows changes made elsewhere. While the live stream is open, polling stands
 * down: a session's end closes its stream and the next ticket is refused (ending the session
 * here), and the badge is fetched again whenever the window regains focus.
 */
export const HEADER_POLL_MS = 10_000;

/**
 * `owns`: pages under another item's path that belong to this one (a device's history is part
 * of Monitoring, where its back link leads, though its address is under /devices).
 */
type NavItem = { to: string; label: string; end?: boolean; owns?: readonly string[] };

const NAV: Record<Role, readonly NavItem[]> = {
  admin: [
    { to: paths.home, label: 'Dashboard', end: true },
    { to: paths.admin, label: 'Admin Portal', end: true },
    { to: paths.adminDevices, label: 'All Devices' },
  ],
  user: [
    { to: paths.home, label: 'Dashboard', end: true },
    { to: paths.myPets, label: 'My Pets' },
    { to: paths.monitoring, label: 'Monitoring', owns: [paths.deviceHistory] },
    { to: paths.devices, label: 'Devices' },
    { to: paths.notifications, label: 'Notifications' },
  ],
};

type SignedInHeaderProps = { user: User; onLogout: () => void; loggingOut: boolean };

export function SignedInHeader({ user, onLogout, loggingOut }: SignedInHeaderProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const menuButton = useRef<HTMLButtonElement>(null);
  const items = NAV[user.role];

  return (
    <header
      className="sticky top-0 z-40 border-b bg-card/95 backdrop-blur supports-[backdrop-filter]:bg-card/80"
      // Escape closes the menu from its button as well as from inside it, and focus moving on
      // to the page closes it too, so it never stays open over the page it left. (Only
      // what happens in the header itself: the bell's popover has its own Escape.)
      onKeyDown={(event) => {
        if (!menuOpen || event.key !== 'Escape') return;
        if (!event.currentTarget.contains(event.target as Node)) return;
        setMenuOpen(false);
        menuButton.current?.focus();
      }}
      onBlur={(event) => {
        const next = event.relatedTarget;
        if (menuOpen && next && !event.currentTarget.contains(next)) setMenuOpen(false);
      }}
    >
      {/* The full bar needs about 1,100 px; narrower screens get the menu (never a second line).
          Signed in, pages are max-w-7xl wide (not the public pages' 6xl), so that at 1280 px
          the welcome has room beside the links. */}
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-4 px-4 sm:px-6">
        <Link to={paths.home} className="shrink-0 rounded-md" aria-label="PawGuard dashboard">
          <Logo />
        </Link>

        {/* The links keep their width; the welcome takes what is left (see UserSummary). */}
        <nav aria-label="Main" className="hidden shrink-0 xl:block">
          <NavItems items={items} className="flex items-center gap-1" />
        </nav>

        <div className="ml-auto hidden min-w-0 items-center justify-end gap-2 xl:flex">
          <UserSummary user={user} />
          <div className="shrink-0">
            <NotificationBell />
          </div>
          <Button
            variant="outline"
            size="sm"
            onClick={onLogout}
            disabled={loggingOut}
            className="shrink-0"
          >
            <LogOut aria-hidden="true" />
            Logout
          </Button>
        </div>

        {/* On narrower screens the bell stays in the bar, beside the menu button. */}
        <div className="ml-auto flex shrink-0 items-center gap-1 xl:hidden">
          <NotificationBell />
          <Button
            ref={menuButton}
            variant="ghost"
            size="icon"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <X aria-hidden="true" /> : <Menu aria-hidden="true" />}
            <span className="sr-only">{menuOpen ? 'Close menu' : 'Open menu'}</span>
          </Button>
        </div>
      </div>

      <div id={menuId} hidden={!menuOpen} className="border-t bg-card xl:hidden">
        <div className="mx-auto max-w-7xl px-4 py-4 sm:px-6">
          <nav aria-label="Main">
            {/* Following a link should not leave the menu covering the new page. */}
            <NavItems items={items} className="grid gap-1" onNavigate={() => setMenuOpen(false)} />
          </nav>
          <div className="mt-4 flex flex-col gap-3 border-t pt-4">
            <UserSummary user={user} />
            <Button variant="outline" onClick={onLogout} disabled={loggingOut} className="w-full">
              <LogOut aria-hidden="true" />
              Logout
            </Button>
          </div>
        </div>
      </div>
    </header>
  );
}

type NavItemsProps = { items: readonly NavItem[]; className?: string; onNavigate?: () => void };

function NavItems({ items, className, onNavigate }: NavItemsProps) {
  const { pathname } = useLocation();
  // The item that owns this page is the current one; else the one whose path it is under (as
  // NavLink judges). One kind of link throughout: the same element on every page (focus then
  // moves to the new page's main region, useFocusMainOnNavigate).
  const owner = items.find((item) => item.owns?.some((p) => matchPath(p, pathname)));
  const isCurrent = (item: NavItem) =>
    owner
      ? owner === item
      : matchPath({ path: item.to, end: item.end ?? false }, pathname) !== null;
  return (
    <ul className={className}>
      {items.map((item) => {
        const current = isCurrent(item);
        return (
          <li key={item.to}>
            <Link
              to={item.to}
              onClick={onNavigate}
              aria-current={current ? 'page' : undefined}
              className={cn(
                'block whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium transition-colors',
                current
                  ? 'bg-orange-100 text-orange-800'
                  : 'text-muted-foreground hover:bg-muted hover:text-foreground',
              )}
            >
              {item.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

function UserSummary({ user }: { user: User }) {
  // Spec section 9: every 10 s, live stream or not (the stream carries no preference changes).
  // Polling also notices a session ended elsewhere: its 401 ends the session here too.
  const preferences = useQuery({
    ...getPreferencesQueryOptions(),
    refetchInterval: HEADER_POLL_MS,
  });
  const enabled = preferences.data?.email_notifications_enabled;

  return (
    <div className="flex min-w-0 items-center gap-2 max-xl:flex-wrap">
      {/* In the bar it takes the room the links and buttons leave (about 250 px beside five
          links at 1280 px): a typical name reads whole, only a long one is cut short, and the
          tooltip has all of it. */}
      <span
        className="min-w-0 max-w-full truncate text-sm font-medium"
        title={`Welcome, ${user.name}`}
      >
        Welcome, {user.name}
      </span>
      {enabled === undefined ? null : enabled ? (
        <Badge variant="success" title="E-mail alerts are on">
          <BellRing aria-hidden="true" />
          Enabled
          <span className="sr-only"> e-mail alerts</span>
        </Badge>
      ) : (
        <Badge variant="muted" title="E-mail alerts are off">
          <BellOff aria-hidden="true" />
          Disabled
          <span className="sr-only"> e-mail alerts</span>
        </Badge>
      )}
      <Badge variant={user.role === 'admin' ? 'warning' : 'secondary'}>
        {user.role === 'admin' ? 'Admin' : 'User'}
      </Badge>
    </div>
  );
}
