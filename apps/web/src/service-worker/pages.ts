/**
 * Which built HTML file answers a screen's path, as the server decides it
 * (apps/server/src/plugins/web-app.ts, from dist/pages.json that scripts/prerender.mjs writes):
 * the prerendered page listed for the path, else the empty shell. Hydrating a prerendered
 * page at a path that renders something else would fail, so the service worker answers each
 * path with the same file the server would.
 */
export type PagesManifest = { pages: Record<string, string>; fallback: string };

export function isPagesManifest(value: unknown): value is PagesManifest {
  if (!value || typeof value !== 'object') return false;
  const { pages, fallback } = value as Partial<PagesManifest>;
  return (
    typeof fallback === 'string' &&
    !!pages &&
    typeof pages === 'object' &&
    Object.values(pages).every((file) => typeof file === 'string')
  );
}

/** The file (e.g. `index.html`) for a pathname; matched without case and trailing slash. */
export function pageFileFor(manifest: PagesManifest, pathname: string): string {
  const path = pathname.toLowerCase().replace(/(.)\/+$/, '$1');
  return Object.hasOwn(manifest.pages, path) ? manifest.pages[path]! : manifest.fallback;
}

/**
 * Whether the app's pages answer a navigation to this pathname, as the server decides it: not
 * under /api (its documentation page among it) and not a file name (a last segment with an
 * extension). Those go to the network as they are.
 */
export function isScreenPath(pathname: string): boolean {
  return !pathname.startsWith('/api') && !/\.[A-Za-z0-9]+$/.test(pathname);
}
