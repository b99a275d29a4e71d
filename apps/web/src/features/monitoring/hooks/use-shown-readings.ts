import { useState } from 'react';
import type { Device } from '@pawguard/shared';
import { NOTHING_SHOWN, nextShownReadings, type ShownReadings } from '../components/reading-change';

/**
 * The values Monitoring shows, kept apart from the query cache: the cache follows every
 * reading (the stream patches it), the screen only the changed ones (spec section 4).
 * `dataUpdatedAt` is when the devices' data arrived, by fetch or from the stream.
 */
export function useShownReadings(
  devices: readonly Device[] | undefined,
  dataUpdatedAt: number,
): ShownReadings {
  const [state, setState] = useState<{
    source: readonly Device[] | undefined;
    shown: ShownReadings;
  }>({ source: undefined, shown: NOTHING_SHOWN });
  // Adjusting state to new data during render (React's pattern for derived state).
  if (devices !== undefined && devices !== state.source) {
    const next = { source: devices, shown: nextShownReadings(state.shown, devices, dataUpdatedAt) };
    setState(next);
    return next.shown;
  }
  return state.shown;
}
