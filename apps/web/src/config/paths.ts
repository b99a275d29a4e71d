/** Route paths in one place, so links and the route table cannot drift apart. */
export const paths = {
  home: '/',
  myPets: '/my-pets',
  petProfiles: '/pet-profiles',
  myDogs: '/my-dogs',
  monitoring: '/monitoring',
  devices: '/devices',
  deviceHistory: '/devices/:id/history',
  registerDevice: '/register-device',
  admin: '/admin',
  adminDevices: '/admin/devices',
  notifications: '/notifications',
  emergency: '/emergency',
  safety: '/safety',
  support: '/support',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];

/** One device's readings history (paths.deviceHistory with its id). */
export const deviceHistoryPath = (id: string): string =>
  paths.deviceHistory.replace(':id', encodeURIComponent(id));

/** My Pets with its add-pet sheet open (the dashboard's "Add a pet"). */
export const addPetPath = `${paths.myPets}?add=pet`;
