import type { ComponentType } from 'react';
import { paths } from '@/config/paths';
import { preloadable } from '@/lib/preloadable';
import { SignedInLayout } from './layouts/signed-in-shell';

type Screen = ComponentType<object> & { preload: () => Promise<unknown> };

// Every screen but the landing page loads on demand (landing JS budget: 100 kB gzipped). A
// screen whose code is preloaded renders without a loader (lib/preloadable.ts).
const dashboard = preloadable(() => import('./routes/dashboard'));
const myPets = preloadable(() => import('./routes/my-pets'));

/** The signed-in screens by path (signed out, each of these paths shows the landing page). */
export const signedInScreens: readonly { path: string; Screen: Screen }[] = [
  { path: paths.home, Screen: dashboard },
  { path: paths.myPets, Screen: myPets },
  { path: paths.petProfiles, Screen: myPets },
  { path: paths.myDogs, Screen: myPets },
  { path: paths.monitoring, Screen: preloadable(() => import('./routes/monitoring')) },
  { path: paths.devices, Screen: preloadable(() => import('./routes/devices')) },
  { path: paths.deviceHistory, Screen: preloadable(() => import('./routes/device-history')) },
  { path: paths.petHealth, Screen: preloadable(() => import('./routes/pet-health')) },
  { path: paths.registerDevice, Screen: preloadable(() => import('./routes/register-device')) },
  { path: paths.admin, Screen: preloadable(() => import('./routes/admin')) },
  { path: paths.adminDevices, Screen: preloadable(() => import('./routes/admin-devices')) },
  { path: paths.notifications, Screen: preloadable(() => import('./routes/notifications')) },
  { path: paths.safety, Screen: preloadable(() => import('./routes/safety')) },
  { path: paths.support, Screen: preloadable(() => import('./routes/support')) },
];

/** The login screen: its code is fetched when a visitor shows they are about to open it. */
export const AuthScreen = preloadable(async () => ({
  default: (await import('@/features/auth/components/auth-screen')).AuthScreen,
}));

/** A URL's path as the route table spells it (public/session-hint.js does the same). */
export const routePath = (pathname: string) => pathname.toLowerCase().replace(/(.)\/+$/, '$1');

// A chunk that fails here is reported when its screen renders (its error boundary).
const ignore = () => undefined;

/**
 * Fetches the signed-in shell and the screen at this URL, so that signing in (or restoring a
 * session) renders them at once instead of behind a loader.
 */
export function preloadSignedInScreen(pathname: string): void {
  const path = routePath(pathname);
  SignedInLayout.preload().catch(ignore);
  signedInScreens
    .find((s) => s.path === path)
    ?.Screen.preload()
    .catch(ignore);
}

/** A visitor is about to sign in (the Login action is pointed at, focused or opened). */
export function preloadSignIn(pathname: string): void {
  AuthScreen.preload().catch(ignore);
  preloadSignedInScreen(pathname);
}
