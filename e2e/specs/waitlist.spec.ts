import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { uniqueEmail, uniqueName } from '../support/api';
import { adminCredentials } from '../support/env';
import { signInThroughForm, toast } from '../support/app';

type Entry = { name: string; email: string; phone: string; petName: string; petBreed: string };

const newEntry = (overrides: Partial<Entry> = {}): Entry => ({
  name: uniqueName('Jamie'),
  email: uniqueEmail('waitlist'),
  phone: '+1 (555) 010-0123',
  petName: 'Biscuit',
  petBreed: 'Beagle',
  ...overrides,
});

async function openWaitlist(page: Page, button: 'first' | 'last' = 'first'): Promise<Locator> {
  await page.goto('/');
  // Prerendered: interactive once the app has taken the page over.
  await page.waitForLoadState('networkidle');
  await page.getByRole('button', { name: 'Join Waitlist' })[button]().click();
  const dialog = page.getByRole('dialog', { name: 'Join the Waitlist' });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function fill(dialog: Locator, entry: Partial<Entry>): Promise<void> {
  if (entry.name !== undefined) await dialog.getByLabel('Name', { exact: true }).fill(entry.name);
  if (entry.email !== undefined) await dialog.getByLabel('Email').fill(entry.email);
  if (entry.phone !== undefined) await dialog.getByLabel('Phone').fill(entry.phone);
  if (entry.petName !== undefined) await dialog.getByLabel('Pet Name').fill(entry.petName);
  if (entry.petBreed !== undefined)
    await dialog.getByLabel('Pet Breed').selectOption(entry.petBreed);
}

/** Counts the POST /api/waitlist calls the page makes. */
function countJoinRequests(page: Page): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/waitlist')
      count += 1;
  });
  return () => count;
}

test('a visitor joins the waitlist and is thanked', async ({ page }) => {
  const dialog = await openWaitlist(page, 'last');
  await fill(dialog, newEntry());
  await dialog.getByRole('button', { name: 'Join Waitlist' }).click();

  const thanks = toast(page, 'Successfully Joined Waitlist!');
  await expect(thanks).toBeVisible();
  await expect(thanks).toContainText('Thank you');
  await expect(dialog).toBeHidden();

  // Opening it again starts with an empty form.
  await page.getByRole('button', { name: 'Join Waitlist' }).first().click();
  await expect(page.getByRole('dialog').getByLabel('Name', { exact: true })).toHaveValue('');
});

test('a missing field is named in the form and nothing is sent', async ({ page }) => {
  const joinRequests = countJoinRequests(page);
  const dialog = await openWaitlist(page);
  await fill(dialog, { ...newEntry(), phone: '   ' });
  await dialog.getByRole('button', { name: 'Join Waitlist' }).click();

  await expect(dialog.getByText('Please enter your phone number.')).toBeVisible();
  await expect(dialog.getByLabel('Phone')).toBeFocused();
  await expect(dialog.getByLabel('Phone')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog).toBeVisible();
  expect(joinRequests()).toBe(0);
});

test('an e-mail already on the waitlist is refused with a clear message', async ({
  page,
  request,
}) => {
  const entry = newEntry();
  const first = await request.post('/api/waitlist', { data: entry });
  expect(first.status(), await first.text()).toBe(201);

  const dialog = await openWaitlist(page);
  await fill(dialog, { ...entry, name: uniqueName('Sam'), email: entry.email.toUpperCase() });
  const answer = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/waitlist',
  );
  await dialog.getByRole('button', { name: 'Join Waitlist' }).click();

  expect((await answer).status()).toBe(409);
  await expect(toast(page, 'This email is already on the waitlist')).toBeVisible();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Join Waitlist' })).toBeEnabled();
});

test('WEB-3: markup in every waitlist field is shown as text, never run, also to the admin', async ({
  page,
  request,
  openBrowser,
}) => {
  const probe = '<img src=x onerror=alert(1)>';
  const email = uniqueEmail('xss-waitlist');

  // The pick list cannot hold markup; the API refuses it there.
  const breedProbe = await request.post('/api/waitlist', {
    data: { ...newEntry(), petBreed: probe },
  });
  expect(breedProbe.status()).toBe(400);

  const dialog = await openWaitlist(page);
  await fill(dialog, {
    name: probe,
    email: probe,
    phone: probe,
    petName: probe,
    petBreed: 'Other',
  });
  await dialog.getByRole('button', { name: 'Join Waitlist' }).click();
  // An e-mail address cannot be markup: the form says so before anything is sent.
  await expect(dialog.getByText('Please enter a valid email address.')).toBeVisible();

  // Nor can a phone number: the form applies the server's own rule, and says so as text.
  await fill(dialog, { email });
  let sent = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/waitlist') sent++;
  });
  await dialog.getByRole('button', { name: 'Join Waitlist' }).click();
  await expect(
    dialog.getByText('Please enter a valid phone number: digits, spaces and + ( ) . - only.'),
  ).toBeVisible();
  expect(sent).toBe(0);

  await fill(dialog, { phone: '555-0100' });
  await dialog.getByRole('button', { name: 'Join Waitlist' }).click();
  await expect(toast(page, 'Successfully Joined Waitlist!')).toBeVisible();
  await expect(page.locator('img[src="x"]')).toHaveCount(0);

  const adminPage = await openBrowser();
  await signInThroughForm(adminPage, adminCredentials.email, adminCredentials.password);
  await expect(adminPage.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  const waitlist = adminPage.getByRole('region', { name: 'Waitlist' });
  const row = waitlist.getByRole('row').filter({ hasText: email });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('cell').nth(0)).toHaveText(probe);
  await expect(row.getByRole('cell').nth(3)).toHaveText(probe);
  await expect(adminPage.locator('img[src="x"]')).toHaveCount(0);
  // The `problems` fixture fails the test if any page opened a dialog.
});

test('an admin exports the waitlist as a formula-safe CSV', async ({ page, request }) => {
  const entry = newEntry({ name: '=HYPERLINK("http://example.test","x")' });
  const joined = await request.post('/api/waitlist', { data: entry });
  expect(joined.status(), await joined.text()).toBe(201);

  await signInThroughForm(page, adminCredentials.email, adminCredentials.password);
  const waitlist = page.getByRole('region', { name: 'Waitlist' });
  await expect(waitlist.getByRole('row').filter({ hasText: entry.email })).toHaveCount(1);

  const download = page.waitForEvent('download');
  await waitlist.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('pawguard-waitlist.csv');
  const stream = await file.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const csv = Buffer.concat(chunks).toString('utf8');
  expect(csv).toContain(entry.email);
  expect(csv).toContain(`'=HYPERLINK`);
});
