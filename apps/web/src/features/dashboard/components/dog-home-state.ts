import { isFresh, isVitalsStatus, type Device, type VitalsStatus } from '@pawguard/shared';

export type DogHomeState =
  /** The collars are still being fetched: nothing is known yet. */
  | { kind: 'checking'; collar: null }
  /** The collars could not be fetched: whether the dog wears one is not known. */
  | { kind: 'unknown'; collar: null }
  | { kind: 'no-collar'; collar: null }
  /** A collar is on the dog but none has sent a reading yet. */
  | { kind: 'waiting'; collar: Device }
  /** The latest reading is 2 minutes old or more (spec section 4's freshness). */
  | { kind: 'disconnected'; collar: Device }
  | { kind: VitalsStatus; collar: Device };

/** The owner's collars as far as they are known: the list, or why there is none. */
export type KnownCollars = readonly Device[] | 'pending' | 'failed';

const recordedAt = (c: Device) =>
  c.vitals_recorded_at ? Date.parse(c.vitals_recorded_at) : Number.NEGATIVE_INFINITY;

/**
 * A dog's state on the home card: from the collar on it with the latest reading (a dog may
 * wear several), the server's status while that reading is fresh, else why there is none.
 * Without the collar list (still loading, or failed) nothing is claimed about the collar.
 */
export function dogHomeState(dogId: string, collars: KnownCollars, now: number): DogHomeState {
  if (collars === 'pending') return { kind: 'checking', collar: null };
  if (collars === 'failed') return { kind: 'unknown', collar: null };
  const worn = collars.filter((c) => c.dog_id === dogId);
  if (worn.length === 0) return { kind: 'no-collar', collar: null };
  const latest = worn.reduce((a, b) => (recordedAt(b) > recordedAt(a) ? b : a));
  if (latest.vitals_recorded_at === null) return { kind: 'waiting', collar: latest };
  if (!isFresh(latest.vitals_recorded_at, now) || !isVitalsStatus(latest.vitals_status))
    return { kind: 'disconnected', collar: latest };
  return { kind: latest.vitals_status, collar: latest };
}
