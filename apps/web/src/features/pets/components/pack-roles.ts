import { wallClock, zonedTimeToUtc, type PackRole } from '@pawguard/shared';

/** Each role in one line, where an owner chooses it (docs/pack.md). */
export const PACK_ROLE_SUMMARIES: Record<PackRole, string> = {
  co_owner: 'Sees and manages the pet and its collars, and gets its alerts.',
  caregiver:
    "Sees the pet's live state and alerts, can acknowledge and resolve them, and changes nothing else.",
};

/** What the role lets its person do with `dog`, as the invitation page lists it. */
export function packRoleRights(role: PackRole, dog: string): { may: string[]; mayNot: string } {
  const see = `See ${dog}'s live readings, history and activity`;
  const alerts = `Get ${dog}'s alerts, and acknowledge and resolve them`;
  return role === 'co_owner'
    ? {
        may: [see, alerts, `Edit ${dog}'s profile, rename their collars and set their goals`],
        mayNot: `Only the owner deletes ${dog}, adds or removes collars and invites people.`,
      }
    : { may: [see, alerts], mayNot: `A caregiver changes nothing else about ${dog}.` };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Today's date ('2026-07-01') on the account's clock: the earliest an invitation may run to. */
export function todayIn(timeZone: string | null, now: number): string {
  const { year, month, day } = wallClock(now, timeZone ?? 'UTC');
  return `${year}-${pad(month)}-${pad(day)}`;
}

/**
 * The instant a sharing chosen 'until' a date ends: the last minute of that day on the
 * account's clock, so the person sees the pet all that day and the date reads back the same.
 */
export function endOfDay(date: string, timeZone: string | null): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(zonedTimeToUtc(timeZone ?? 'UTC', year, month, day, 23, 59)).toISOString();
}
