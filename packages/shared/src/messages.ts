/**
 * Texts the server and the web both depend on, word for word from the specification.
 * Screen-only texts live with their screens; fixed page content lives in content.ts.
 */
export const MESSAGES = {
  invalidCredentials: 'Invalid email or password',
  emailTaken: 'User with this email already exists',
  authRequired: 'Authentication required. Please log in again.',
  requestFailed: 'Request failed',
  networkError: 'Network error',
  adminOnly: 'You need admin privileges to access this page',
  deviceAlreadyAssigned: (id: string) => `Device ${id} is already assigned to another user.`,
  noCollarsAvailable: 'No collars are available right now. Please try again later.',
} as const;
