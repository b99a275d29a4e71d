// After `vite build` and the SSR build of src/prerender.tsx: writes each prerendered page into
// dist, keeps the empty shell as app.html for every other path, and lists in pages.json which
// file answers which path (the server reads it).
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(web, 'dist');
const ssrDir = path.join(web, 'dist-ssr');
const { pages, renderPage, documentTitle, sessionHintRequests, sessionLoader } = await import(
  pathToFileURL(path.join(ssrDir, 'prerender.js')).href
);

const built = await readFile(path.join(dist, 'index.html'), 'utf8');
const EMPTY_ROOT = '<div id="root"></div>';
if (!built.includes(EMPTY_ROOT)) throw new Error(`dist/index.html has no ${EMPTY_ROOT}`);
// Every page carries the loader a visitor with a stored session sees until the app has
// started (index.html's style shows it only to them).
const shell = built.replace(
  EMPTY_ROOT,
  `<div id="session-loader">${sessionLoader}</div>\n    ${EMPTY_ROOT}`,
);

const viteManifest = JSON.parse(await readFile(path.join(dist, '.vite/manifest.json'), 'utf8'));

/**
 * The manifest key of a source module, or of a chunk vite.config.ts groups by name (a group
 * takes its modules' own keys away). A name the build does not know fails the build, rather
 * than silently preloading nothing.
 */
function manifestKey(source) {
  if (viteManifest[source]) return source;
  const named = Object.keys(viteManifest).filter((key) => viteManifest[key].name === source);
  if (named.length !== 1) throw new Error(`The build manifest has no single chunk ${source}`);
  return named[0];
}

/** The chunk files a module or named chunk needs (itself and its static imports), for modulepreload. */
function chunksOf(source) {
  const seen = new Set();
  const walk = (key) => {
    if (seen.has(key)) return [];
    seen.add(key);
    const entry = viteManifest[key];
    return [entry.file, ...(entry.imports ?? []).flatMap(walk)];
  };
  return walk(manifestKey(source));
}

// The landing page loads these on demand: the toaster host at a visitor's first touch or key
// press, the login form and the waitlist dialog when asked for. None of them may bring the
// signed-in app along, as they do when a module they need lands in the `signed-in` group (a
// group takes what its modules import): a phone's first tap would then download and run the
// whole dashboard. vite.config.ts groups the toaster host with sonner, as `toaster`.
const signedInFile = viteManifest[manifestKey('signed-in')].file;
for (const [source, group] of [
  ['src/app/toaster-host.tsx', 'toaster'],
  ['src/features/auth/components/auth-screen.tsx'],
  ['src/features/waitlist/components/waitlist-dialog.tsx'],
]) {
  if (chunksOf(viteManifest[source] || !group ? source : group).includes(signedInFile)) {
    throw new Error(
      `${source} imports the signed-in chunk (${signedInFile}): see the groups in vite.config.ts`,
    );
  }
}

const manifest = { pages: {}, fallback: 'app.html' };
await writeFile(path.join(dist, 'app.html'), shell);
for (const page of pages) {
  const html = await renderPage(page.renderAt);
  const preloads = [...new Set(page.preload.flatMap((source) => chunksOf(source)))]
    .filter((file) => !shell.includes(`/${file}"`))
    .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
    .join('\n    ');
  const out = shell
    .replace(/<title>[^<]*<\/title>/, `<title>${documentTitle(page.title)}</title>`)
    .replace('</head>', preloads ? `  ${preloads}\n  </head>` : '</head>')
    .replace(EMPTY_ROOT, `<div id="root" data-prerendered>${html}</div>`);
  await writeFile(path.join(dist, page.file), out);
  for (const p of page.paths) manifest.pages[p.toLowerCase()] = page.file;
  console.log(
    `prerendered ${page.renderAt} → dist/${page.file} (${(html.length / 1024).toFixed(1)} kB)`,
  );
}
await writeFile(path.join(dist, 'pages.json'), `${JSON.stringify(manifest, null, 2)}\n`);

// public/session-hint.js preloads the signed-in app for a visitor with a stored session: the
// chunks vite.config.ts groups as `signed-in` and what they import, but the main bundle.
// It also starts the session and the screen's first requests (app/router.tsx's earlyRequests).
const hintFile = path.join(dist, 'session-hint.js');
let hint = await readFile(hintFile, 'utf8');
const fillIn = (marker, value) => {
  const slot = new RegExp(`/\\* ${marker} \\*/ (\\[\\]|null)`);
  if (!slot.test(hint)) throw new Error(`dist/session-hint.js has no /* ${marker} */ to fill in`);
  hint = hint.replace(slot, () => JSON.stringify(value));
};
fillIn(
  'signed-in chunks',
  chunksOf('signed-in')
    .filter((file) => !shell.includes(`/${file}"`))
    .map((file) => `/${file}`),
);
fillIn('early requests', sessionHintRequests);
await writeFile(hintFile, hint);
await rm(ssrDir, { recursive: true, force: true });
