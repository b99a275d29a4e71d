import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { registerUser } from '../support/api';
import { header, headerText, signInWithToken, toast } from '../support/app';

const resultsHeading = (page: Page) => page.getByRole('heading', { name: /^Emergency Vets Near/ });

test('a visitor finds emergency vets by ZIP code, and a blank ZIP does nothing', async ({
  page,
}) => {
  await page.goto('/emergency');
  // Prerendered: interactive once the app has taken the page over.
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('heading', { name: 'Emergency Vets', exact: true })).toBeVisible();
  await expect(header(page).getByRole('button', { name: 'Login', exact: true })).toBeVisible();

  const zip = page.getByLabel('ZIP code');
  await zip.fill('   ');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(resultsHeading(page)).toHaveCount(0);

  await zip.fill('12345');
  await zip.press('Enter');
  await expect(page.getByRole('heading', { name: 'Emergency Vets Near 12345' })).toBeVisible();
  await expect(page.getByText('Sample results', { exact: true })).toBeVisible();
  const clinics = page.getByRole('list', { name: 'Clinics' }).getByRole('listitem');
  await expect(clinics).toHaveCount(3);
  await expect(clinics.getByRole('button', { name: /^Call / })).toHaveCount(3);
  await expect(clinics.getByRole('button', { name: /^Get directions to / })).toHaveCount(3);

  await expect(page.getByText('ASPCA Animal Poison Control')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Call (888) 426-4435' })).toHaveAttribute(
    'href',
    'tel:+18884264435',
  );
});

test('signed in, /emergency keeps the signed-in header', async ({ page, request }) => {
  const owner = await registerUser(request);
  await signInWithToken(page, owner.token, '/emergency');

  await expect(page.getByRole('heading', { name: 'Emergency Vets', exact: true })).toBeVisible();
  await expect(headerText(page, `Welcome, ${owner.name}`)).toBeVisible();
  await expect(header(page).getByRole('button', { name: 'Logout' })).toBeVisible();
  await expect(header(page).getByRole('button', { name: 'Login', exact: true })).toHaveCount(0);
});

test('an owner reads the safety guide tab by tab and checks the weather', async ({
  page,
  request,
}) => {
  const owner = await registerUser(request);
  await signInWithToken(page, owner.token, '/safety');

  await expect(page.getByRole('heading', { name: 'Pet Safety Guide' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'General Tips' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByRole('heading', { name: 'Never leave pets in cars' })).toBeVisible();

  await page.getByRole('tab', { name: 'Emergency' }).click();
  await expect(page.getByRole('heading', { name: 'Heat Stroke Emergency Protocol' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Never leave pets in cars' })).toBeHidden();

  // Arrow keys move between tabs, as in any tab list.
  await page.getByRole('tab', { name: 'Emergency' }).press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Weather Guide' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  const table = page.getByRole('table');
  await expect(table.getByRole('row')).toHaveCount(6);
  await expect(table.getByRole('row').filter({ hasText: '75-80°F' })).toContainText('Caution');

  await page.getByRole('button', { name: 'Check Current Weather Safety Level' }).click();
  await expect(page.getByText('78°F', { exact: true })).toBeVisible();
  await expect(page.getByText('Monitor closely and provide extra water breaks')).toBeVisible();
  await expect(page.getByText('Sample result', { exact: true })).toBeVisible();
  const weatherToast = toast(page, 'Weather Check Complete');
  await expect(weatherToast).toBeVisible();
  // It lasts 3 seconds (the pointer must not rest on it: hovering pauses the timer).
  await page.mouse.move(0, 0);
  await expect(weatherToast).toHaveCount(0, { timeout: 8_000 });

  await page.getByRole('tab', { name: 'Emergency' }).click();
  await page.getByRole('link', { name: 'Find Emergency Vets' }).click();
  await expect(page).toHaveURL('/emergency');
});

test('an owner finds real e-mail and phone links on the support page', async ({
  page,
  request,
}) => {
  const owner = await registerUser(request);
  await signInWithToken(page, owner.token, '/support');

  await expect(page.getByRole('heading', { name: 'Support', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Send Email' })).toHaveAttribute(
    'href',
    /^mailto:[^@\s]+@[^@\s]+$/,
  );
  await expect(page.getByRole('link', { name: 'Call Support' })).toHaveAttribute(
    'href',
    /^tel:\+?\d+$/,
  );
  await expect(page.getByRole('link', { name: /^Call Emergency Line/ })).toHaveAttribute(
    'href',
    /^tel:\+?\d+$/,
  );

  const question = page.getByRole('button', { name: 'Is the collar waterproof?' });
  await question.click();
  await expect(question).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByText(/IPX7/)).toBeVisible();
});
