import { lazy, type ReactElement } from 'react';
import { useLocation, useRoutes, type RouteObject } from 'react-router';
import { paths } from '@/config/paths';
import { startEarlyRequests } from '@/lib/early-requests';
import { RootLayout } from './layouts/root-layout';
import { ProtectedLayout } from './layouts/protected-layout';
import { OpenLayout } from './layouts/open-layout';
import { AppErrorBoundary } from './error-boundary';

// Every screen but the landing page loads on demand (landing JS budget: 100 kB gzipped).
const screens = {
  dashboard: () => import('./routes/dashboard'),
  myPets: () => import('./routes/my-pets'),
  monitoring: () => import('./routes/monitoring'),
  devices: () => import('./routes/devices'),
  deviceHistory: () => import('./routes/device-history'),
  registerDevice: () => import('./routes/register-device'),
  admin: () => import('./routes/admin'),
  adminDevices: () => import('./routes/admin-devices'),
  notifications: () => import('./routes/notifications'),
  safety: () => import('./routes/safety'),
  support: () => import('./routes/support'),
};
const DashboardRoute = lazy(screens.dashboard);
const MyPetsRoute = lazy(screens.myPets);
const MonitoringRoute = lazy(screens.monitoring);
const DevicesRoute = lazy(screens.devices);
const DeviceHistoryRoute = lazy(screens.deviceHistory);
const RegisterDeviceRoute = lazy(screens.registerDevice);
const AdminRoute = lazy(screens.admin);
const AdminDevicesRoute = lazy(screens.adminDevices);
const NotificationsRoute = lazy(screens.notifications);
const EmergencyRoute = lazy(() => import('./routes/emergency'));
const SafetyRoute = lazy(screens.safety);
const SupportRoute = lazy(screens.support);
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
  load: () => Promise<unknown>;
  requests?: readonly string[];
}[] = [
  {
    path: paths.home,
    element: <DashboardRoute />,
    load: screens.dashboard,
    requests: dashboardRequests,
  },
  { path: paths.myPets, element: <MyPetsRoute />, load: screens.myPets },
  { path: paths.petProfiles, element: <MyPetsRoute />, load: screens.myPets },
  { path: paths.myDogs, element: <MyPetsRoute />, load: screens.myPets },
  { path: paths.monitoring, element: <MonitoringRoute />, load: screens.monitoring },
  { path: paths.devices, element: <DevicesRoute />, load: screens.devices },
  { path: paths.deviceHistory, element: <DeviceHistoryRoute />, load: screens.deviceHistory },
  { path: paths.registerDevice, element: <RegisterDeviceRoute />, load: screens.registerDevice },
  { path: paths.admin, element: <AdminRoute />, load: screens.admin },
  { path: paths.adminDevices, element: <AdminDevicesRoute />, load: screens.adminDevices },
  { path: paths.notifications, element: <NotificationsRoute />, load: screens.notifications },
  { path: paths.safety, element: <SafetyRoute />, load: screens.safety },
  { path: paths.support, element: <SupportRoute />, load: screens.support },
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
  void import('./layouts/signed-in-layout');
  void protectedRoutes.find((route) => route.path === path)?.load();
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
