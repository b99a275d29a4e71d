import { useLayoutEffect, type RefObject } from 'react';

/**
 * The height the dog cards took on this owner's last visit, per layout (one column on a phone,
 * two from the `sm` breakpoint), so their loading placeholder takes the same room and the links
 * below do not jump when the cards arrive (a layout shift, counted against the page on a slow
 * phone). Only a number in this browser's storage, under the owner's id; none on a first visit.
 */
export const REMEMBERED_HEIGHT_KEY = 'pawguard:home-dogs-height';
const KEY = REMEMBERED_HEIGHT_KEY;
const layout = () => (window.matchMedia?.('(min-width: 640px)').matches ? 'wide' : 'narrow');

type Stored = { user: string; wide?: number; narrow?: number };

function read(): Stored | null {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Stored | null;
    return v && typeof v.user === 'string' ? v : null;
  } catch {
    return null;
  }
}

/** The remembered height (px) for this owner and layout, or null. */
export function rememberedHeight(userId: string): number | null {
  if (typeof window === 'undefined') return null;
  const stored = read();
  const h = stored?.user === userId ? stored[layout()] : undefined;
  return typeof h === 'number' && h > 0 && h < 4000 ? Math.round(h) : null;
}

/**
 * Remembers the height of `ref`'s element for this owner and layout when `deps` change, once
 * what fills it has settled (never an error's or a half-loaded height).
 */
export function useRememberHeight(
  userId: string,
  ref: RefObject<HTMLElement | null>,
  settled: boolean,
  deps: readonly unknown[],
): void {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !settled) return;
    const height = Math.round(el.getBoundingClientRect().height);
    if (height <= 0) return;
    const stored = read();
    const next: Stored = stored?.user === userId ? stored : { user: userId };
    if (next[layout()] === height) return;
    try {
      localStorage.setItem(KEY, JSON.stringify({ ...next, [layout()]: height }));
    } catch {
      // Storage full or refused: the placeholder keeps its default size.
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [userId, settled, ...deps]);
}
