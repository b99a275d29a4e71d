import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
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

/**
 * A page a visitor meets first gets its code in a few files rather than dozens of small
 * shared chunks: on a phone, each file waits its turn for one of six connections. Each group
 * takes the modules named and everything they import that no group before it took.
 * - `index`: what the main bundle imports (the landing page, within its budget), kept whole.
 * - `public`: what /emergency needs beyond it (the other page a signed-out visitor reaches);
 *   scripts/prerender.mjs preloads it by this name.
 * - `signed-in`: what the signed-in shell and the dashboard need beyond both.
 * Every other screen still loads on demand, in chunks of its own beside these.
 */
const bootChunks = [
  { name: 'index', tags: ['$initial' as const], priority: 3 },
  {
    name: 'public',
    test: sources('app/routes/emergency', 'features/emergency', 'lib/query-provider'),
    priority: 2,
  },
  {
    name: 'signed-in',
    test: sources('app/layouts/signed-in-layout', 'app/routes/dashboard', 'lib/auth/session-api'),
    priority: 1,
  },
];

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), tailwindcss()],
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
