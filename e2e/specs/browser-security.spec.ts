import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { registerUser, uniqueEmail, TEST_PASSWORD } from '../support/api';
import { adminCredentials } from '../support/env';
import {
  findUserRow,
  headerText,
  openLoginScreen,
  signInThroughForm,
  signInWithToken,
  toast,
} from '../support/app';

/** Collects Content-Security-Policy violations the page reports, across navigations. */
async function recordCspViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction('__pawguardCspViolation', (description: string) =>
    violations.push(description),
  );
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __pawguardCspViolation: (d: string) => void })
        .__pawguardCspViolation;
      report(
        `${event.violatedDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  });
  return violations;
}

test('WEB-1: the prerendered pages (landing, emergency) and the dashboard run under the CSP without violations', async ({
  page,
  request,
  openBrowser,
}) => {
  const violations = await recordCspViolations(page);
  const owner = await registerUser(request);

  const response = await page.goto('/');
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp, 'the SPA is served with a Content-Security-Policy').toContain("script-src 'self'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("base-uri 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp, 'no inline or eval scripts allowed').not.toMatch(
    /script-src[^;]*'unsafe-(inline|eval)'/,
  );
  expect(response?.headers()['x-content-type-options']).toBe('nosniff');
  expect(response?.headers()['referrer-policy']).toBeTruthy();
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Join Waitlist' }).first().click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.press('Escape');

  // The other prerendered page hydrates under the same policy: its search works.
  const emergency = await page.goto('/emergency');
  expect(emergency?.headers()['content-security-policy']).toBe(csp);
  await page.waitForLoadState('networkidle');
  await page.getByLabel('ZIP code').fill('10001');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('heading', { name: 'Emergency Vets Near 10001' })).toBeVisible();

  await signInWithToken(page, owner.token);
  await expect(headerText(page, `Welcome, ${owner.name}`)).toBeVisible();

  const adminPage = await openBrowser();
  const adminViolations = await recordCspViolations(adminPage);
  await signInThroughForm(adminPage, adminCredentials.email, adminCredentials.password);
  await expect(adminPage.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  await expect(
    adminPage.getByRole('row').filter({ hasText: adminCredentials.email }),
  ).toBeVisible();

  const apiResponse = await request.get('/api/health');
  expect(
    apiResponse.headers()['content-security-policy'],
    'API answers carry the CSP too',
  ).toBeTruthy();
  // A blocked `eval` is typically zod 4 probing for JIT support with `new Function('')`; the
  // app avoids it with `z.config({ jitless: true })` before any schema runs.
  expect([...violations, ...adminViolations], 'CSP violations').toEqual([]);
});

test('WEB-3: a name made of markup is shown as text, never run', async ({ page, openBrowser }) => {
  const name = '<img src=x onerror=alert(1)>';
  const email = uniqueEmail('xss');

  await openLoginScreen(page);
  await page.getByRole('button', { name: 'Create Account' }).click();
  const form = page.getByRole('form', { name: 'Create Account' });
  await form.getByLabel('Full Name').fill(name);
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(TEST_PASSWORD);
  await form.getByRole('button', { name: 'Create Account' }).click();
  await expect(toast(page, 'Check your email')).toBeVisible();
  await expect(headerText(page, `Welcome, ${name}`)).toBeVisible();
  await expect(page.getByRole('heading', { name: `Welcome, ${name}` })).toBeVisible();
  await page.reload();
  await expect(headerText(page, `Welcome, ${name}`)).toBeVisible();
  await expect(page.locator('img[src="x"]')).toHaveCount(0);

  const adminPage = await openBrowser();
  await signInThroughForm(adminPage, adminCredentials.email, adminCredentials.password);
  await expect(adminPage.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  const row = await findUserRow(adminPage, email);
  await expect(row).toContainText(name);
  await row.getByRole('button', { name: `View details for ${name}` }).click();
  await expect(adminPage.getByRole('dialog', { name: 'User details' })).toContainText(name);
  await expect(adminPage.locator('img[src="x"]')).toHaveCount(0);
  // The `problems` fixture fails the test if any page opened a dialog.
});
