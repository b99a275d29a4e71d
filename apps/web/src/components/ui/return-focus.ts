import { useRef } from 'react';
import { MAIN_ID } from '@/lib/main-region';

interface FocusHandlers {
  onOpenAutoFocus?: ((event: Event) => void) | undefined;
  onCloseAutoFocus?: ((event: Event) => void) | undefined;
}

/**
 * A dialog or sheet opened from state (a button's onClick, not a Radix Trigger) has nothing to
 * give focus back to when it closes: Radix leaves it on <body>, and a keyboard user starts again
 * from the top of the page. Remembers what had focus when it opened and returns there, unless
 * the caller's own handler has already chosen (prevented the default). When that is gone (the
 * Delete button of the pet just deleted), focus goes to the page's main region, where the user
 * was, and the page does not scroll.
 */
export function useReturnFocus({ onOpenAutoFocus, onCloseAutoFocus }: FocusHandlers) {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: (event: Event) => {
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
      onOpenAutoFocus?.(event);
      // A field marked data-autofocus takes focus instead of the first one (React's autoFocus
      // would focus it before this runs, and what opened the dialog would go unrecorded).
      const preferred =
        event.currentTarget instanceof HTMLElement
          ? event.currentTarget.querySelector<HTMLElement>('[data-autofocus]')
          : null;
      if (preferred && !event.defaultPrevented) {
        event.preventDefault();
        preferred.focus();
      }
    },
    onCloseAutoFocus: (event: Event) => {
      onCloseAutoFocus?.(event);
      const target = opener.current;
      opener.current = null;
      if (event.defaultPrevented || !target) return;
      const next = target.isConnected ? target : document.getElementById(MAIN_ID);
      if (!next) return;
      event.preventDefault();
      next.focus({ preventScroll: next !== target });
    },
  };
}
