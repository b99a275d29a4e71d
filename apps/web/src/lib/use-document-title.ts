import { useEffect } from 'react';
import { BRAND } from '@pawguard/shared/content';

/** Each screen names itself in the tab and for screen readers announcing navigation. */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    document.title = title ? `${title} · ${BRAND.name}` : `${BRAND.name} — AI pet protection`;
  }, [title]);
}
