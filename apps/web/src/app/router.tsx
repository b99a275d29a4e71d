import { lazy, type ReactElement } from 'react';
import { preloadable } from '@/lib/preloadable';
import { useLocation, useRoutes, type RouteObject } from 'react-router';
import { paths } from '@/config/paths';
import { startEarlyRequests } from '@/lib/early-requests';
import { RootLayout } from './layouts/root-layout';
import { ProtectedLayout } from './layouts/protected-layout';
import { OpenLayout } from './layouts/open-layout';
import { SignedInLayout } from './layouts/signed-in-shell';
import { AppErrorBoundary } from './error-boundary';

// Every screen but the landing page loads on demand (landing JS budget: 100 kB gzipped). A
// returning visitor's screen is preloaded (preloadSignedIn) and then renders without a loader.
const DashboardRoute = preloadable(() => import('./routes/dashboard'));
const MyPetsRoute = preloadable(() => import('./routes/my-pets'));
const MonitoringRoute = preloadable(() => import('./routes/monitoring'));
const DevicesRoute = preloadable(() => import('./routes/devices'));
const DeviceHistoryRoute = preloadable(() => import('./routes/device-history'));
const RegisterDeviceRoute = preloadable(() => import('./routes/register-device'));
const AdminRoute = preloadable(() => import('./routes/admin'));
const AdminDevicesRoute = preloadable(() => import('./routes/admin-devices'));
const NotificationsRoute = preloadable(() => import('./routes/notifications'));
const EmergencyRoute = lazy(() => import('./routes/emergency'));
const SafetyRoute = preloadable(() => import('./routes/safety'));
const SupportRoute = preloadable(() => import('./routes/support'));
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
  screen: { preload: () => Promise<unknown> };
  requests?: readonly string[];
}[] = [
  {
    path: paths.home,
    element: <DashboardRoute />,
    screen: DashboardRoute,
    requests: dashboardRequests,
  },
  { path: paths.myPets, element: <MyPetsRoute />, screen: MyPetsRoute },
  { path: paths.petProfiles, element: <MyPetsRoute />, screen: MyPetsRoute },
  { path: paths.myDogs, element: <MyPetsRoute />, screen: MyPetsRoute },
  { path: paths.monitoring, element: <MonitoringRoute />, screen: MonitoringRoute },
  { path: paths.devices, element: <DevicesRoute />, screen: DevicesRoute },
  { path: paths.deviceHistory, element: <DeviceHistoryRoute />, screen: DeviceHistoryRoute },
  { path: paths.registerDevice, element: <RegisterDeviceRoute />, screen: RegisterDeviceRoute },
  { path: paths.admin, element: <AdminRoute />, screen: AdminRoute },
  { path: paths.adminDevices, element: <AdminDevicesRoute />, screen: AdminDevicesRoute },
  { path: paths.notifications, element: <NotificationsRoute />, screen: NotificationsRoute },
  { path: paths.safety, element: <SafetyRoute />, screen: SafetyRoute },
  { path: paths.support, element: <SupportRoute />, screen: SupportRoute },
];

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

/** A URL's path as the route table spells it (public/session-hint.js does the same). */
const routePath = (pathname: string) => pathname.toLowerCase().replace(/(.)\/+$/, '$1');

/**
 * A returning visitor (a stored token): fetch the signed-in shell, this URL's screen, the
 * session and the screen's first data all at once, instead of one after the other as each
 * piece finds it needs the next. (Requests public/session-hint.js already started are not
 * made twice.)
 */
export function preloadSignedIn(pathname: string, token: string): void {
  const path = routePath(pathname);
  startEarlyRequests(token, [...earlyRequests.all, ...(earlyRequests.byPath[path] ?? [])]);
  // A chunk that fails here is reported when the screen renders (its error boundary).
  const ignore = () => undefined;
  SignedInLayout.preload().catch(ignore);
  protectedRoutes
    .find((route) => route.path === path)
    ?.screen.preload()
    .catch(ignore);
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
        children: [{ path: paths.emergency, element: <EmergencyRoute /> }],
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
