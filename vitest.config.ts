import { defineConfig } from 'vitest/config';

/**
 * One runner, named projects: `shared` (pure rules), `collar-sim` (the simulated collars), `server` (integration on SQLite, and on
 * PostgreSQL as `server-pg` when TEST_DATABASE_URL is set), `web` (components in jsdom).
 *
 * `npm test` runs this suite beside the browser suite on two cores, so a test may wait for a
 * core: timeouts bound a hang, they never measure speed (bench/ does).
 */
const BUSY_MACHINE_TIMEOUT = 30_000;

const serverProject = (name: string, env: Record<string, string>) => ({
  extends: false as const,
  test: {
    name,
    root: './apps/server',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    environment: 'node',
    // One module graph per worker, not per file: importing the server anew for each of 80
    // files cost about 40 % of the suite. Each file still builds its own app, database and
    // clock (test/helpers/app.ts), and must leave nothing running when it ends.
    isolate: false,
    setupFiles: ['./test/setup.ts'],
    // Makes a CA for the run and sets NODE_EXTRA_CA_CERTS before the workers are forked (they
    // read it only as they start): HTTPS receivers in tests are trusted as production trusts.
    globalSetup: ['./test/global-setup.ts'],
    env,
    // The server's tests start apps, databases and brokers: twice the others' bound.
    testTimeout: 2 * BUSY_MACHINE_TIMEOUT,
    hookTimeout: 2 * BUSY_MACHINE_TIMEOUT,
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
          testTimeout: BUSY_MACHINE_TIMEOUT,
        },
      },
      {
        test: {
          name: 'collar-sim',
          root: './tools/collar-sim',
          include: ['src/**/*.test.ts'],
          environment: 'node',
          testTimeout: BUSY_MACHINE_TIMEOUT,
        },
      },
      {
        test: {
          name: 'scripts',
          root: '.',
          include: ['scripts/**/*.test.mjs'],
          environment: 'node',
          testTimeout: BUSY_MACHINE_TIMEOUT,
        },
      },
      serverProject('server', { TEST_DB: 'sqlite' }),
      ...(pg ? [serverProject('server-pg', { TEST_DB: 'postgres' })] : []),
      // The web project keeps its own config beside its Vite plugins.
      './apps/web/vitest.config.ts',
    ],
  },
});
