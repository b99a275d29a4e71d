import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { MAIN_ID } from '@/lib/main-region';

/**
 * After the app moves to another page, focus goes to the new page's main region, unless the
 * page has put it somewhere in there itself. Otherwise the link that was followed is gone and
 * focus falls to <body>: a keyboard user would start again from the top of the header, and a
 * screen reader would not hear that the page changed. A first load is left alone.
 */
export function useFocusMainOnNavigate(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    const previous = lastPathname;
    lastPathname = pathname;
    if (previous === null || previous === pathname) return;
    const main = document.getElementById(MAIN_ID);
    if (main && !main.contains(document.activeElement)) main.focus({ preventScroll: true });
  }, [pathname]);
}

/**
 * The page the app last showed, kept outside the layout: moving between pages under two
 * different layouts (/emergency and the rest) mounts the layout afresh, and a first render is
 * not a first load.
 */
let lastPathname: string | null = null;
