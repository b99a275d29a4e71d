import { defineConfig } from '@playwright/test';

// run.mjs starts the server and passes its address; the specs never start one themselves.
const baseURL = process.env.PAWGUARD_BASE_URL;
const executablePath = process.env.CHROMIUM_PATH;
if (!baseURL || !executablePath) {
  throw new Error(
    'Run the e2e suite through `npm run test:e2e`: it finds Chromium and starts the server.',
  );
}

export default defineConfig({
  testDir: './specs',
  testMatch: '**/*.spec.ts',
  outputDir: './.artifacts/test-results',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  // Generous: on a busy 2-core machine Chromium alone can take seconds to draw a page, and on a
  // slow day (the suite at three times its usual 5 minutes, beside the unit tests) a field took
  // 15 s to fill. These bound how long a broken page is waited for; no spec asserts how fast
  // anything is, and a passing run waits no longer for them.
  timeout: 120_000,
  expect: { timeout: 30_000 },
  reporter: [
    ['list'],
    ['html', { outputFolder: './.artifacts/report', open: 'never' }],
    // `npm test` reads the counts from here for its closing "N passed, N failed" line.
    ...(process.env.PAWGUARD_E2E_SUMMARY
      ? [['json', { outputFile: process.env.PAWGUARD_E2E_SUMMARY }] as const]
      : []),
  ],
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 720 },
    baseURL,
    // The Debian Chromium, never a downloaded one.
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    headless: true,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    actionTimeout: 30_000,
    navigationTimeout: 60_000,
  },
});
