import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False while the server prerenders and while the browser hydrates that HTML, true after:
 * for parts that exist only in the browser (toasts), so hydration finds what was prerendered.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
