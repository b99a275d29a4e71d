import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

export default defineProject({
  plugins: [react()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    // A fresh context per file in one worker that keeps its jsdom: creating jsdom for each of
    // 60 files cost a third of the project's time.
    pool: 'vmThreads',
    setupFiles: ['./src/testing/setup.ts'],
    // Beside the browser suite on two cores (npm test): a bound on a hang, not on speed.
    testTimeout: 30_000,
  },
});
