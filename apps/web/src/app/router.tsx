import { lazy } from 'react';
import { useLocation, useRoutes, type RouteObject } from 'react-router';
import { paths } from '@/config/paths';
import { RootLayout } from './layouts/root-layout';
import { ProtectedLayout } from './layouts/protected-layout';
import { OpenLayout } from './layouts/open-layout';
import { AppErrorBoundary } from './error-boundary';

// Every screen but the landing page loads on demand (landing JS budget: 120 kB gzipped).
const DashboardRoute = lazy(() => import('./routes/dashboard'));
const MyPetsRoute = lazy(() => import('./routes/my-pets'));
const MonitoringRoute = lazy(() => import('./routes/monitoring'));
const DevicesRoute = lazy(() => import('./routes/devices'));
const DeviceHistoryRoute = lazy(() => import('./routes/device-history'));
const RegisterDeviceRoute = lazy(() => import('./routes/register-device'));
const AdminRoute = lazy(() => import('./routes/admin'));
const AdminDevicesRoute = lazy(() => import('./routes/admin-devices'));
const NotificationsRoute = lazy(() => import('./routes/notifications'));
const EmergencyRoute = lazy(() => import('./routes/emergency'));
const SafetyRoute = lazy(() => import('./routes/safety'));
const SupportRoute = lazy(() => import('./routes/support'));
const NotFoundRoute = lazy(() => import('./routes/not-found'));

/** Spec section 2. The table checks only sign-in; screens check roles themselves (section 6). */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        element: <ProtectedLayout />,
        children: [
          { index: true, element: <DashboardRoute /> },
          { path: paths.myPets, element: <MyPetsRoute /> },
          { path: paths.petProfiles, element: <MyPetsRoute /> },
          { path: paths.myDogs, element: <MyPetsRoute /> },
          { path: paths.monitoring, element: <MonitoringRoute /> },
          { path: paths.devices, element: <DevicesRoute /> },
          { path: paths.deviceHistory, element: <DeviceHistoryRoute /> },
          { path: paths.registerDevice, element: <RegisterDeviceRoute /> },
          { path: paths.admin, element: <AdminRoute /> },
          { path: paths.adminDevices, element: <AdminDevicesRoute /> },
          { path: paths.notifications, element: <NotificationsRoute /> },
          { path: paths.safety, element: <SafetyRoute /> },
          { path: paths.support, element: <SupportRoute /> },
        ],
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
