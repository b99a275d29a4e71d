import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { openLoginScreen } from '../support/app';

test('an unknown path shows the 404 page', async ({ page }) => {
  const path = '/no-such-page-for-pawguard';
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });

  await page.goto(path);

  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
  const home = page.getByRole('link', { name: 'Return to Home' });
  await expect(home).toHaveAttribute('href', '/');
  await expect
    .poll(() => warnings.some((text) => text.includes(path)), {
      message: 'console warning naming the path',
    })
    .toBe(true);

  await home.click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();
});

test('a screen answers HEAD as it answers GET, as link checkers and uptime monitors ask', async ({
  request,
}) => {
  for (const path of ['/', '/my-pets', '/emergency', '/admin', '/no-such-page-for-pawguard']) {
    const head = await request.head(path);
    expect([path, head.status(), head.headers()['content-type']]).toEqual([
      path,
      200,
      expect.stringContaining('text/html'),
    ]);
  }
  expect((await request.head('/api/no-such-call')).status()).toBe(404);
});

test('signed out, /monitoring shows the landing page', async ({ page }) => {
  await page.goto('/monitoring');

  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Join Waitlist' }).first()).toBeVisible();
  await expect(page.locator('#features')).toBeAttached();
  await expect(page).toHaveURL('/monitoring');
  await expect(page.getByText('Device Monitoring Dashboard')).toHaveCount(0);
});

test.describe('at phone width (375 px)', () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });

  const scrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

  test('the landing page works without horizontal scrolling', async ({ page }) => {
    await page.goto('/');
    // Prerendered: interactive once the app has taken the page over.
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Join Waitlist' }).first()).toBeVisible();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375);

    await openLoginScreen(page);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
  });
});
