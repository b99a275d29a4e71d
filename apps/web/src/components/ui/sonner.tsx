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

/** Below this width the toasts span the screen, so they sit at its centre. */
const PHONE = '(max-width: 639px)';

/**
 * Always at the bottom, clear of the sticky header (at the top they covered its bell, badges
 * and Logout): centred on a phone, at the right on a wide screen. At most three show at
 * once, stacked with the newest in front.
 */
export function Toaster({ style, ...props }: ToasterProps) {
  const phone = useMediaQuery(PHONE);
  return (
    <Sonner
      position={phone ? 'bottom-center' : 'bottom-right'}
      visibleToasts={3}
      closeButton
      richColors
      toastOptions={{ classNames: { title: 'font-semibold', description: 'text-sm' } }}
      style={{ ...READABLE_RICH_COLORS, ...style }}
      {...props}
    />
  );
}
