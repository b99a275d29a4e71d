// Build-time entry (vite build --ssr): renders the pages a signed-out visitor reaches to
// HTML, which scripts/prerender.mjs writes into dist so they paint before any JavaScript runs.
import { StrictMode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { prerender } from 'react-dom/static';
import { MemoryRouter } from 'react-router';
import { AppTree } from '@/app/app';
import { earlyRequests, landingPaths } from '@/app/router';
import { SessionLoader } from '@/app/layouts/page-loader';
import { env } from '@/config/env';
import { paths } from '@/config/paths';

export { documentTitle } from '@/lib/use-document-title';

/** What public/session-hint.js asks for early, for a visitor with a stored session. */
export const sessionHintRequests = { api: env.apiBaseUrl, ...earlyRequests };

/**
 * The loader a visitor with a stored session sees from the first paint (the page's own HTML
 * is hidden from them), the same the app shows while it restores the session.
 */
export const sessionLoader = renderToStaticMarkup(<SessionLoader />);

/** Each prerendered page: its file in dist, its title, and every path that shows it. */
export const pages = [
  { file: 'index.html', title: null, paths: landingPaths, renderAt: paths.home, preload: [] },
  {
    file: 'emergency.html',
    title: 'Emergency Vets',
    paths: [paths.emergency],
    renderAt: paths.emergency,
    // Its lazy parts (one chunk, named in vite.config.ts), fetched with the main bundle so the
    // page hydrates without a second wait.
    preload: ['public'],
  },
] as const;

/** The page's HTML once every lazy part of it has loaded, as hydrateRoot expects to find it. */
export async function renderPage(url: string): Promise<string> {
  const { prelude } = await prerender(
    <StrictMode>
      <MemoryRouter initialEntries={[url]}>
        <AppTree />
      </MemoryRouter>
    </StrictMode>,
  );
  return new Response(prelude).text();
}
