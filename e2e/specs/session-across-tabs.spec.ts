import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { addCollar, addPet, bearer, postReadings, registerUser } from '../support/api';
import { header, headerText, signInWithToken } from '../support/app';

/** The guard a page shows once its session has ended (spec section 2, 'Access-guard screens'). */
const authenticationRequired = (page: Page) =>
  page.getByRole('heading', { name: 'Authentication Required' });

test('a logout in a second tab ends the first tab’s session: no Live mark, no welcome, Authentication Required', async ({
  context,
  request,
}) => {
  const owner = await registerUser(request);
  const petId = await addPet(request, owner, 'Biscuit');
  const collar = await addCollar(request, owner, petId);
  await postReadings(request, collar, [{ temperature: 30, humidity: 50 }]);

  const first = await context.newPage();
  await signInWithToken(first, owner.token, '/monitoring');
  await expect(first.getByText('Live', { exact: true })).toBeVisible();
  await expect(headerText(first, `Welcome, ${owner.name}`)).toBeVisible();

  const second = await context.newPage();
  await second.goto('/my-pets');
  await expect(headerText(second, `Welcome, ${owner.name}`)).toBeVisible();
  await header(second).getByRole('button', { name: 'Logout' }).filter({ visible: true }).click();
  await expect(second.getByRole('button', { name: 'Login', exact: true })).toBeVisible();

  // The first tab, untouched: its session has ended too, and it says so.
  await expect(authenticationRequired(first)).toBeVisible();
  await expect(first.getByText('Live', { exact: true })).toHaveCount(0);
  await expect(headerText(first, `Welcome, ${owner.name}`)).toHaveCount(0);
});

test('a 401 in one tab ends the session in every tab', async ({ context, request }) => {
  const owner = await registerUser(request);
  const first = await context.newPage();
  await signInWithToken(first, owner.token, '/monitoring');
  await expect(headerText(first, `Welcome, ${owner.name}`)).toBeVisible();
  const second = await context.newPage();
  await second.goto('/my-pets');
  await expect(headerText(second, `Welcome, ${owner.name}`)).toBeVisible();

  // The session ends on the server (as at its expiry, or a logout elsewhere)…
  const loggedOut = await request.post('/api/auth/logout', { headers: bearer(owner.token) });
  expect(loggedOut.status()).toBeLessThan(300);
  // …and the next call is refused: Refresh here, unless the header's 10-second poll of either
  // tab came first (then the button is already gone with the session, which is the point).
  await first
    .getByRole('button', { name: 'Refresh Data' })
    .click({ timeout: 5_000 })
    .catch(() => {});

  await expect(authenticationRequired(first)).toBeVisible();
  await expect(authenticationRequired(second)).toBeVisible();
  await expect(headerText(second, `Welcome, ${owner.name}`)).toHaveCount(0);
  expect(await first.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
});
