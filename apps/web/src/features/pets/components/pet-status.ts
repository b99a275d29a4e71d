import { isFresh, type Device } from '@pawguard/shared';

export type PetStatus = 'loading' | 'disconnected' | 'safe' | 'danger';

type CollarVitals = Pick<Device, 'dog_id' | 'vitals_recorded_at' | 'vitals_status'>;

const recordedAt = (c: CollarVitals) =>
  c.vitals_recorded_at ? Date.parse(c.vitals_recorded_at) : NaN;

/**
 * Spec section 4, the pet status badge: Loading until the collars are known; Disconnected
 * when no collar on the pet has a reading or the latest one is 2 minutes old or more;
 * otherwise Safe when the server's status is SAFE, else Danger. With several collars on
 * one pet, the latest reading of any of them counts.
 */
export function petStatus(
  petId: string,
  collars: readonly CollarVitals[] | undefined,
  now = Date.now(),
): PetStatus {
  if (collars === undefined) return 'loading';
  let latest: CollarVitals | null = null;
  for (const collar of collars) {
    if (collar.dog_id !== petId || Number.isNaN(recordedAt(collar))) continue;
    if (latest === null || recordedAt(collar) > recordedAt(latest)) latest = collar;
  }
  if (latest === null || !isFresh(latest.vitals_recorded_at, now)) return 'disconnected';
  return latest.vitals_status === 'SAFE' ? 'safe' : 'danger';
}
