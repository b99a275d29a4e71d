import { defineConfig } from 'tsup';

// One bundle for the server, with the shared package inlined (it ships TypeScript source).
export default defineConfig({
  entry: ['src/server.ts'],
  format: ['esm'],
  platform: 'node',
  target: 'node22', // the oldest Node.js that package.json's engines allows
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  noExternal: ['@pawguard/shared'],
});
