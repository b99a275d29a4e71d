import { defineConfig } from 'vitest/config';

/**
 * One runner, named projects: `shared` (pure rules), `collar-sim` (the simulated collars), `server` (integration on SQLite, and on
 * PostgreSQL as `server-pg` when TEST_DATABASE_URL is set), `web` (components in jsdom).
 */
const serverProject = (name: string, env: Record<string, string>) => ({
  extends: false as const,
  test: {
    name,
    root: './apps/server',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['./test/setup.ts'],
    env,
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});

const pg = process.env.TEST_DATABASE_URL;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'shared',
          root: './packages/shared',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'collar-sim',
          root: './tools/collar-sim',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'scripts',
          root: '.',
          include: ['scripts/**/*.test.mjs'],
          environment: 'node',
        },
      },
      serverProject('server', { TEST_DB: 'sqlite' }),
      ...(pg ? [serverProject('server-pg', { TEST_DB: 'postgres' })] : []),
      // The web project keeps its own config beside its Vite plugins.
      './apps/web/vitest.config.ts',
    ],
  },
});
