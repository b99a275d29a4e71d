import { lazy, type ReactElement } from 'react';
import { useLocation, useRoutes, type RouteObject } from 'react-router';
import { paths } from '@/config/paths';
import { startEarlyRequests } from '@/lib/early-requests';
import { RootLayout } from './layouts/root-layout';
import { ProtectedLayout } from './layouts/protected-layout';
import { OpenLayout } from './layouts/open-layout';
import { preloadSignedInScreen, routePath, signedInScreens } from './screens';
import { AppErrorBoundary } from './error-boundary';

const EmergencyRoute = lazy(() => import('./routes/emergency'));
const PackJoinRoute = lazy(() => import('./routes/pack-join'));
const AcknowledgeRoute = lazy(() => import('./routes/acknowledge'));
const NotFoundRoute = lazy(() => import('./routes/not-found'));

/**
 * What an owner's dashboard asks for first: its dogs, their collars and open alerts (the
 * paths lib/api's fetchers use; app/app.test.tsx checks they are taken, not asked twice).
 */
const dashboardRequests = ['/dogs', '/devices', '/alerts?resolved=false&limit=100'];

/**
 * Signed in: these screens. Signed out: the landing page at the same URL (DESIGN §6).
 * `requests`: the GETs the screen makes as it opens, started early for a returning visitor.
 */
const protectedRoutes: {
  path: string;
  element: ReactElement;
  requests?: readonly string[];
}[] = signedInScreens.map(({ path, Screen }) => ({
  path,
  element: <Screen />,
  ...(path === paths.home ? { requests: dashboardRequests } : {}),
}));

/**
 * What every signed-in screen asks for first: the session itself, and the header's unread
 * count and e-mail alert setting.
 */
const signedInRequests = [
  '/auth/profile',
  '/notifications/unread-count',
  '/notifications/preferences',
];

/**
 * The GETs a returning visitor's browser starts before any screen asks: the signed-in shell's
 * at every URL, and each screen's `requests` at its own. The build writes this into
 * public/session-hint.js, which starts them while the page is still loading.
 */
export const earlyRequests: { all: string[]; byPath: Record<string, readonly string[]> } = {
  all: signedInRequests,
  byPath: Object.fromEntries(
    protectedRoutes.flatMap((route) => (route.requests ? [[route.path, route.requests]] : [])),
  ),
};

/**
 * A returning visitor (a stored token): fetch the signed-in shell, this URL's screen, the
 * session and the screen's first data all at once, instead of one after the other as each
 * piece finds it needs the next. (Requests public/session-hint.js already started are not
 * made twice.)
 */
export function preloadSignedIn(pathname: string, token: string): void {
  const path = routePath(pathname);
  startEarlyRequests(token, [...earlyRequests.all, ...(earlyRequests.byPath[path] ?? [])]);
  preloadSignedInScreen(pathname);
}

/** The paths at which a signed-out visitor sees the landing page (prerendered at build time). */
export const landingPaths: readonly string[] = protectedRoutes.map((route) => route.path);

/** Spec section 2. The table checks only sign-in; screens check roles themselves (section 6). */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        element: <ProtectedLayout />,
        children: protectedRoutes.map(({ path, element }) => ({ path, element })),
      },
      {
        element: <OpenLayout />,
        children: [
          { path: paths.emergency, element: <EmergencyRoute /> },
          { path: paths.packJoin, element: <PackJoinRoute /> },
          { path: paths.acknowledge, element: <AcknowledgeRoute /> },
        ],
      },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];

/**
 * Declarative routing (useRoutes under <BrowserRouter>) rather than a data router: the
 * screens fetch through TanStack Query, and leaving out the data router's loader machinery
 * keeps the landing page inside its budget.
 */
export function AppRoutes() {
  const { pathname } = useLocation();
  const element = useRoutes(routes);
  return <AppErrorBoundary resetKey={pathname}>{element}</AppErrorBoundary>;
}
