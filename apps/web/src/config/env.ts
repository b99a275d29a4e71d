/**
 * The only reader of import.meta.env. The web talks to /api on its own origin, so the
 * base URL only changes when the app is served from somewhere unusual.
 */
const raw = import.meta.env;

function readApiBase(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') return '/api';
  return value.replace(/\/+$/, '');
}

export const env = {
  apiBaseUrl: readApiBase(raw.VITE_API_BASE_URL),
  isDev: raw.DEV,
  /** A production build (`vite build`): the only one with a service worker (dist/sw.js). */
  isProduction: raw.PROD,
  isTest: raw.MODE === 'test',
} as const;
