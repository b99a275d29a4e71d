import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { registerUser, uniqueEmail, uniqueName, TEST_PASSWORD } from '../support/api';
import {
  authToken,
  fetchStatus,
  header,
  headerText,
  openLoginScreen,
  signInThroughForm,
  toast,
} from '../support/app';

const storageKeys = (page: Page) =>
  page.evaluate(() => ({ local: Object.keys(localStorage), session: Object.keys(sessionStorage) }));

test('a visitor signs up and lands on the dashboard with their name', async ({ page }) => {
  const name = uniqueName('Maya');
  const email = uniqueEmail('maya');

  await openLoginScreen(page);
  await page.getByRole('button', { name: 'Create Account' }).click();
  const form = page.getByRole('form', { name: 'Create Account' });
  await expect(page.getByText('Join us to keep your pets safe')).toBeVisible();
  await form.getByLabel('Full Name').fill(name);
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password').fill(TEST_PASSWORD);
  await form.getByRole('button', { name: 'Create Account' }).click();

  // The toast first: it shows for a few seconds only, and a slow machine can spend them
  // drawing the dashboard behind it.
  const checkEmail = toast(page, 'Check your email');
  await expect(checkEmail).toBeVisible();
  await expect(checkEmail).toContainText("We've sent you a confirmation link");
  await expect(headerText(page, `Welcome, ${name}`)).toBeVisible();
  await expect(headerText(page, 'User')).toBeVisible();
  // The green notice on the page itself, which stays after the toast has gone.
  await expect(page.getByRole('main').getByText('Check your email')).toBeVisible();
  await expect(page).toHaveURL('/');
  expect(await authToken(page)).toBeTruthy();
});

test('a wrong password shows Login Failed', async ({ page, request, problems }) => {
  const owner = await registerUser(request);

  await signInThroughForm(page, owner.email, 'not-the-password');

  const failed = toast(page, 'Login Failed');
  await expect(failed).toBeVisible();
  await expect(failed).toContainText('Invalid email or password');
  await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
  expect(await authToken(page)).toBeNull();

  // Going to the same page again loads it afresh with the screen still open, and no error.
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
  expect(problems, 'no console or page error after going to /').toEqual([]);
});

test('a reload with the login screen open shows it again, without a page error', async ({
  page,
  problems,
}) => {
  await openLoginScreen(page);
  await page.reload();

  // The prerendered page is the landing page: the login screen opens once the app has taken
  // it over, and taking it over must not fail (React error #418, a hydration mismatch).
  await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
  expect(problems, 'no console or page error after the reload').toEqual([]);
});

test('logout clears auth_token and the old token is refused', async ({ page, request }) => {
  const owner = await registerUser(request);

  await signInThroughForm(page, owner.email, owner.password);
  await expect(headerText(page, `Welcome, ${owner.name}`)).toBeVisible();
  const token = await authToken(page);
  expect(token, 'signing in stores the token').toBeTruthy();
  expect(await fetchStatus(page, '/api/auth/profile', token!)).toBe(200);
  expect(await storageKeys(page), 'only the token is kept in browser storage').toEqual({
    local: ['auth_token'],
    session: [],
  });

  await header(page).getByRole('button', { name: 'Logout' }).filter({ visible: true }).click();

  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();
  expect(await authToken(page)).toBeNull();
  expect(await storageKeys(page), 'nothing is left in browser storage').toEqual({
    local: [],
    session: [],
  });
  expect(await fetchStatus(page, '/api/auth/profile', token!)).toBe(401);
});
