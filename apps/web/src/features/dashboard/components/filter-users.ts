import type { AdminUser } from '@pawguard/shared';

export type RoleFilter = 'all' | 'admin' | 'user';

/** Search matches name or e-mail, ignoring case and surrounding spaces. */
export function filterUsers(
  users: readonly AdminUser[],
  search: string,
  role: RoleFilter,
): AdminUser[] {
  const needle = search.trim().toLowerCase();
  return users.filter(
    (user) =>
      (role === 'all' || user.role === role) &&
      (needle === '' ||
        user.name.toLowerCase().includes(needle) ||
        user.email.toLowerCase().includes(needle)),
  );
}
