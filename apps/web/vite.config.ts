import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA, type VitePWAOptions } from 'vite-plugin-pwa';
import { fileURLToPath } from 'node:url';

// Where /api goes in `vite` and `vite preview`; the server's default port unless told otherwise.
const apiProxy = {
  '/api': { target: process.env.API_PROXY_TARGET ?? 'http://localhost:3000', changeOrigin: true },
};

/** Matches the modules under src/ at these paths (a file without its extension, or a folder). */
const sources = (...paths: string[]) =>
  new RegExp(
    `[\\\\/]src[\\\\/](${paths.map((p) => p.replace(/\//g, '[\\\\/]')).join('|')})([.\\\\/])`,
  );

/** Matches the modules of these npm packages. */
const packages = (...names: string[]) =>
  new RegExp(
    `[\\\\/]node_modules[\\\\/](${names.map((n) => n.replace(/\//g, '[\\\\/]')).join('|')})[\\\\/]`,
  );

/** Matches a module that any of these match. */
const anyOf =
  (...patterns: RegExp[]) =>
  (id: string) =>
    patterns.some((pattern) => pattern.test(id));

/**
 * A page a visitor meets first gets its code in a few files rather than dozens of small
 * shared chunks: on a phone, each file waits its turn for one of six connections. Each group
 * takes the modules named and everything they import that no group before it took, so a
 * group meant for the signed-in app must come after every group the landing page's lazy
 * chunks need: whatever it takes, they would import it whole.
 * - `index`: what the main bundle imports (the landing page, within its budget), kept whole.
 * - `public`: what /emergency needs beyond it (the other page a signed-out visitor reaches);
 *   scripts/prerender.mjs preloads it by this name.
 * - `toaster`: sonner and the toaster host, which the landing page loads at a visitor's first
 *   touch or key press (app/layouts/root-layout.tsx); screens that raise toasts import it.
 * - `forms`: zod, the shared schemas (where the shared LIMITS live too), Radix's dialog and
 *   react-query's hooks beyond /emergency's: what the login form and the waitlist dialog
 *   need beyond the above, shared with the signed-in app.
 * - `signed-in`: what the signed-in shell and the dashboard need beyond all these, and no
 *   more: a landing page's lazy chunk that imported it would bring the whole signed-in app
 *   along on a visitor's first tap. scripts/prerender.mjs fails the build if the toaster,
 *   the login form or the waitlist dialog imports it.
 * A returning owner's dashboard boots from these five files (session-hint.js preloads
 * `signed-in` and what it imports).
 * Every other screen still loads on demand, in chunks of its own beside these.
 */
const bootChunks = [
  { name: 'index', tags: ['$initial' as const], priority: 5 },
  {
    name: 'public',
    test: sources('app/routes/emergency', 'features/emergency', 'lib/query-provider'),
    priority: 4,
  },
  {
    name: 'toaster',
    test: anyOf(sources('app/toaster-host', 'components/ui/sonner'), packages('sonner')),
    priority: 3,
  },
  {
    name: 'forms',
    test: anyOf(
      packages('zod', '@radix-ui/react-dialog', '@tanstack/react-query', '@tanstack/query-core'),
      /[\\/]packages[\\/]shared[\\/]src[\\/]schemas[\\/]/,
      sources('components/ui/dialog', 'components/ui/sheet'),
    ),
    priority: 2,
  },
  {
    name: 'signed-in',
    test: sources('app/layouts/signed-in-layout', 'app/routes/dashboard', 'lib/auth/session-api'),
    priority: 1,
  },
];

/**
 * The web app manifest and the service worker (src/service-worker/sw.ts): the app shell cached
 * for a fast second visit, and pushed alerts shown as notifications. Built with the app only,
 * never with the prerender (SSR) build. The list of files to precache is written into dist/sw.js
 * by scripts/precache.mjs once the prerendered pages exist (here they do not yet), so the
 * plugin leaves its injection point alone. The app registers the worker itself
 * (lib/service-worker.ts), after the page has loaded.
 */
const pwa: Partial<VitePWAOptions> = {
  strategies: 'injectManifest',
  srcDir: 'src/service-worker',
  filename: 'sw.ts',
  injectRegister: false,
  injectManifest: { injectionPoint: undefined },
  integration: {
    // The worker is one file; said the way rolldown (Vite 8) asks, for the plugin's older option.
    configureCustomSWViteBuild(config) {
      const output = config.build?.rollupOptions?.output;
      if (output && !Array.isArray(output) && 'inlineDynamicImports' in output) {
        delete output.inlineDynamicImports;
        Object.assign(output, { codeSplitting: false });
      }
    },
  },
  manifest: {
    name: 'PawGuard',
    short_name: 'PawGuard',
    description:
      'Keeps your dog safe from heat: live readings from the collar, and alerts before it gets dangerous.',
    id: '/',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    lang: 'en',
    // index.html's theme-color and the app's page background (index.css --background).
    theme_color: '#ea580c',
    background_color: '#f8fafc',
    icons: [
      { src: '/icons/pwa-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/pwa-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      {
        src: '/icons/pwa-maskable-512.png',
        sizes: '512x512',
        type: 'image/png',
        purpose: 'maskable',
      },
    ],
  },
};

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), tailwindcss(), ...(isSsrBuild ? [] : [VitePWA(pwa)])],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: { proxy: apiProxy },
  preview: { proxy: apiProxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Read by scripts/prerender.mjs to preload what a prerendered page needs to hydrate.
    manifest: true,
    rolldownOptions: {
      treeshake: {
        // The shared package is pure (schemas, rules, constants) but does not say so in its
        // package.json; without this, importing one constant drags every zod schema (and zod)
        // into the landing page's bundle.
        moduleSideEffects: [{ test: /[\\/]packages[\\/]shared[\\/]src[\\/]/, sideEffects: false }],
      },
      // The prerender (SSR) build runs at build time only: its chunks do not matter.
      output: isSsrBuild ? {} : { codeSplitting: { groups: bootChunks } },
    },
  },
}));
