import { defineConfig } from 'tsup';

// One bundle for the server, and one for `npm run backup`/`restore`, with the shared package
// inlined (it ships TypeScript source).
export default defineConfig({
  entry: ['src/server.ts', 'src/backup-cli.ts'],
  format: ['esm'],
  platform: 'node',
  target: 'node22', // the oldest Node.js that package.json's engines allows
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  noExternal: ['@pawguard/shared'],
});
