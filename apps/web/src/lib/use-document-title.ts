import { useEffect } from 'react';
import { BRAND } from '@pawguard/shared/content';

/** The tab's title for a screen; null is the landing page's. */
export function documentTitle(title: string | null): string {
  return title ? `${title} · ${BRAND.name}` : `${BRAND.name} — AI pet protection`;
}

/** Each screen names itself in the tab and for screen readers announcing navigation. */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}
