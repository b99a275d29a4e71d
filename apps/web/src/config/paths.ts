/** Route paths in one place, so links and the route table cannot drift apart. */
export const paths = {
  home: '/',
  myPets: '/my-pets',
  petProfiles: '/pet-profiles',
  myDogs: '/my-dogs',
  monitoring: '/monitoring',
  devices: '/devices',
  deviceHistory: '/devices/:id/history',
  petHealth: '/pets/:id/health',
  registerDevice: '/register-device',
  admin: '/admin',
  adminDevices: '/admin/devices',
  notifications: '/notifications',
  emergency: '/emergency',
  /** An invitation's link to a pet's pack (PACK_JOIN_PAGE in the contract). */
  packJoin: '/pack/join',
  /**
   * An alert mail's acknowledge link (the server writes it: the shared ACKNOWLEDGE_PAGE, which
   * paths.test.ts holds this to). Written out: the contract's module would bring zod into the
   * landing page's script.
   */
  acknowledge: '/acknowledge',
  safety: '/safety',
  support: '/support',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];

/** One device's readings history (paths.deviceHistory with its id). */
export const deviceHistoryPath = (id: string): string =>
  paths.deviceHistory.replace(':id', encodeURIComponent(id));

/** The days a health dashboard shows: 7, 30 or 90 (`?days=`). */
export const HEALTH_RANGES = [7, 30, 90] as const;
export type HealthRange = (typeof HEALTH_RANGES)[number];

/** A pet's health dashboard (paths.petHealth with its id), at a range other than 7 days. */
export const petHealthPath = (id: string, days?: HealthRange): string =>
  paths.petHealth.replace(':id', encodeURIComponent(id)) +
  (days && days !== HEALTH_RANGES[0] ? `?days=${days}` : '');

/** My Pets with its add-pet sheet open (the dashboard's "Add a pet"). */
export const addPetPath = `${paths.myPets}?add=pet`;
