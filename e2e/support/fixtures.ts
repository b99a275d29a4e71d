import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';

/**
 * Every page a test opens is watched: a native dialog (an alert() from injected markup,
 * WEB-3), an uncaught script error or a logged error fails the test. Nothing in PawGuard
 * opens a native dialog, so any dialog is a finding.
 */
type Problems = string[];

const IGNORED_CONSOLE_ERRORS = [
  // Refused requests (401, 403, 404) that tests provoke on purpose; the specs assert the status.
  /^Failed to load resource/,
  // Content-Security-Policy reports: the WEB-1 spec collects and asserts these itself.
  /Content Security Policy/,
];

function watch(page: Page, problems: Problems): void {
  page.on('dialog', (dialog) => {
    problems.push(
      `a native ${dialog.type()} dialog opened on ${page.url()}: ${JSON.stringify(dialog.message())}`,
    );
    void dialog.dismiss().catch(() => {});
  });
  page.on('pageerror', (error) => {
    problems.push(`uncaught error on ${page.url()}: ${error.message}`);
  });
  // React's error boundary catches render errors, so they surface only as console errors.
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    if (IGNORED_CONSOLE_ERRORS.some((pattern) => pattern.test(text))) return;
    problems.push(`console error on ${page.url()}: ${text.split('\n')[0]}`);
  });
}

function watchContext(context: BrowserContext, problems: Problems): void {
  for (const page of context.pages()) watch(page, problems);
  context.on('page', (page) => watch(page, problems));
}

type Fixtures = {
  problems: Problems;
  /** A page in a browser of its own: a second person using the app at the same time. */
  openBrowser: () => Promise<Page>;
};

export const test = base.extend<Fixtures>({
  // Playwright reads a fixture's dependencies from its destructuring pattern; this one has none.
  // eslint-disable-next-line no-empty-pattern
  problems: async ({}, use) => {
    const problems: Problems = [];
    await use(problems);
    expect(problems, 'no native dialogs or uncaught errors in the page').toEqual([]);
  },
  context: async ({ context, problems }, use) => {
    watchContext(context, problems);
    await use(context);
  },
  openBrowser: async ({ browser, problems }, use, testInfo) => {
    const contexts: BrowserContext[] = [];
    await use(async () => {
      const context = await browser.newContext();
      contexts.push(context);
      watchContext(context, problems);
      return context.newPage();
    });
    const failed = testInfo.status !== testInfo.expectedStatus;
    for (const [i, context] of contexts.entries()) {
      if (failed) {
        for (const [j, page] of context.pages().entries()) {
          const body = await page.screenshot().catch(() => null);
          if (body)
            await testInfo.attach(`other-browser-${i + 1}-page-${j + 1}`, {
              body,
              contentType: 'image/png',
            });
        }
      }
      await context.close();
    }
  },
});

export { expect };
