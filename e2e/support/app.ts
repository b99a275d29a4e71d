import { expect, type Locator, type Page } from '@playwright/test';

/** What a person sees and does in PawGuard, in the spec's own words. */

export const header = (page: Page): Locator => page.getByRole('banner');

/** Text in the signed-in header (the mobile menu repeats it, hidden, at desktop width). */
export const headerText = (page: Page, text: string): Locator =>
  header(page).getByText(text, { exact: true }).filter({ visible: true });

/** A toast, found by its title. */
export const toast = (page: Page, title: string): Locator =>
  page
    .getByRole('region', { name: /^Notifications/ })
    .getByRole('listitem')
    .filter({ hasText: title });

export async function openLoginScreen(page: Page): Promise<void> {
  await page.goto('/');
  // Prerendered: interactive once the app has taken the page over.
  await page.waitForLoadState('networkidle');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
}

export async function signInThroughForm(
  page: Page,
  email: string,
  password: string,
): Promise<void> {
  await openLoginScreen(page);
  const form = page.getByRole('form', { name: 'Welcome Back' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Sign In' }).click();
}

/** Signs in as an account created through the API, the way a returning visitor arrives. */
export async function signInWithToken(page: Page, token: string, path = '/'): Promise<void> {
  await page.goto('/');
  await page.evaluate((value) => localStorage.setItem('auth_token', value), token);
  await page.goto(path);
}

export const authToken = (page: Page): Promise<string | null> =>
  page.evaluate(() => localStorage.getItem('auth_token'));

/** Calls the API from inside the page, as the app's own code would. */
export const fetchStatus = (page: Page, path: string, token: string): Promise<number> =>
  page.evaluate(
    async ({ path, token }) =>
      (await fetch(path, { headers: { Authorization: `Bearer ${token}` } })).status,
    { path, token },
  );

/** The admin's user table narrowed to one person, found by e-mail. */
export async function findUserRow(page: Page, email: string): Promise<Locator> {
  await page.getByLabel('Search users').fill(email);
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toHaveCount(1);
  return row;
}
