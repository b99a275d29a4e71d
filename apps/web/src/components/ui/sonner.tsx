import type { CSSProperties } from 'react';
import { Toaster as Sonner, type ToasterProps } from 'sonner';
import { useMediaQuery } from '@/lib/use-media-query';

/**
 * Sonner's rich colours put mid-tone text on pale backgrounds (success and error about
 * 4.3:1, warning and info about 3:1); these darker shades keep every toast above 4.5:1.
 */
const READABLE_RICH_COLORS = {
  '--success-text': 'hsl(140, 100%, 22%)',
  '--error-text': 'hsl(360, 100%, 40%)',
  '--warning-text': 'hsl(31, 92%, 30%)',
  '--info-text': 'hsl(216, 87%, 40%)',
} as CSSProperties;

/** Below this width the toasts span the screen. */
const PHONE = '(max-width: 639px)';

/** Just below the sticky header (h-16), so a toast never covers its bell, badges or Logout. */
const BELOW_HEADER = { top: 72 };

/**
 * On a wide screen at the bottom right, beside what it announces. On a phone a toast spans
 * the screen: at the bottom it covered the very result it announced (the new pet at the end
 * of the list, a sheet's button), so it sits at the top, just below the sticky header, over
 * what was already read. At most three show at once, stacked with the newest in front.
 */
export function Toaster({ style, ...props }: ToasterProps) {
  const phone = useMediaQuery(PHONE);
  return (
    <Sonner
      position={phone ? 'top-center' : 'bottom-right'}
      mobileOffset={BELOW_HEADER}
      visibleToasts={3}
      closeButton
      richColors
      toastOptions={{ classNames: { title: 'font-semibold', description: 'text-sm' } }}
      style={{ ...READABLE_RICH_COLORS, ...style }}
      {...props}
    />
  );
}
