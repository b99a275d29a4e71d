// After scripts/prerender.mjs: writes into dist/sw.js (built by vite-plugin-pwa, see
// vite.config.ts) the list of files the service worker keeps, each with a hash of its content.
// Here, and not in `vite build`, because the pages and public/session-hint.js are only final
// once prerendered: a list made earlier would name the empty shell under index.html's hash.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { injectManifest } from 'workbox-build';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const sw = path.join(dist, 'sw.js');

const INJECTION_POINT = 'self.__WB_MANIFEST';
if (!(await readFile(sw, 'utf8')).includes(INJECTION_POINT))
  throw new Error(`dist/sw.js has no ${INJECTION_POINT} to write the precache list into`);

const { count, size, warnings } = await injectManifest({
  swSrc: sw,
  swDest: sw,
  globDirectory: dist,
  // The app: every page, script, style, icon, the manifest and the pages' map (pages.json).
  // Not the build's own manifest (.vite/), nor the worker itself.
  globPatterns: ['**/*.{html,js,css,json,webmanifest,svg,png}'],
  globIgnores: ['.vite/**', 'sw.js'],
  // Hashed in their names: fetched as they are, without a revision parameter.
  dontCacheBustURLsMatching: /^assets\//,
  injectionPoint: INJECTION_POINT,
});
for (const warning of warnings) console.warn(`precache: ${warning}`);
console.log(`precache: ${count} files (${(size / 1024).toFixed(0)} kB) listed in dist/sw.js`);
