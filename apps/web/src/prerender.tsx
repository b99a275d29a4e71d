// Build-time entry (vite build --ssr): renders the pages a signed-out visitor reaches to
// HTML, which scripts/prerender.mjs writes into dist so they paint before any JavaScript runs.
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { MemoryRouter } from 'react-router';
import { AppTree } from '@/app/app';
import { landingPaths } from '@/app/router';
import { paths } from '@/config/paths';

/** Each prerendered page: its file in dist, its title, and every path that shows it. */
export { documentTitle } from '@/lib/use-document-title';

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
