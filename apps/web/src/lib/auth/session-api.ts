/** Loaded on demand: these calls parse with zod, which signed-out visitors never need. */
export { getProfile } from './get-profile';
export { login } from './login';
export { logout } from './logout';
export { register } from './register';
export { savePreferences } from './save-preferences';
export { missingPreferences } from './time-zone';
