import { expect, test } from '../support/fixtures';
import { addPet, bearer, profileStatus, registerUser } from '../support/api';
import { adminCredentials } from '../support/env';
import {
  fetchStatus,
  findUserRow,
  headerText,
  signInThroughForm,
  signInWithToken,
  toast,
} from '../support/app';

test('an admin promotes a user, who after reloading sees Admin in the header', async ({
  page,
  request,
  openBrowser,
}) => {
  const owner = await registerUser(request);
  const ownerPage = await openBrowser();
  await signInWithToken(ownerPage, owner.token);
  await expect(headerText(ownerPage, `Welcome, ${owner.name}`)).toBeVisible();
  await expect(headerText(ownerPage, 'User')).toBeVisible();

  await signInThroughForm(page, adminCredentials.email, adminCredentials.password);
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  const row = await findUserRow(page, owner.email);
  await expect(row.getByText('User', { exact: true })).toBeVisible();
  await row.getByRole('button', { name: `Change role for ${owner.name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Change role' });
  await dialog.getByLabel('New role').selectOption('admin');
  await dialog.getByRole('button', { name: 'Update role' }).click();
  await expect(toast(page, 'User role updated to admin')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(row.getByText('Admin', { exact: true })).toBeVisible();

  await ownerPage.reload();
  await expect(headerText(ownerPage, `Welcome, ${owner.name}`)).toBeVisible();
  await expect(headerText(ownerPage, 'Admin')).toBeVisible();
  await expect(ownerPage.getByRole('link', { name: 'Admin Portal' })).toBeVisible();
});

test('an admin deletes a user', async ({ page, request }) => {
  const owner = await registerUser(request);
  await addPet(request, owner, 'Biscuit');

  await signInThroughForm(page, adminCredentials.email, adminCredentials.password);
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  const row = await findUserRow(page, owner.email);
  await row.getByRole('button', { name: `View details for ${owner.name}` }).click();
  const details = page.getByRole('dialog', { name: 'User details' });
  await expect(details).toContainText(owner.email);
  await expect(details).toContainText('Biscuit');

  await details.getByRole('button', { name: 'Delete user' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText(
    'Are you sure you want to delete this user? This action cannot be undone.',
  );
  await confirm.getByRole('button', { name: 'Delete user' }).click();

  await expect(toast(page, 'User data deleted')).toBeVisible();
  await expect(details).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: owner.email })).toHaveCount(0);
  await expect(page.getByText('No users match your search.')).toBeVisible();
  expect(await profileStatus(request, owner.token)).toBe(401);
});

test('a user is refused the admin API and the admin screens', async ({ page, request }) => {
  const owner = await registerUser(request);

  // AC-2: the server enforces the role, whatever the UI shows.
  expect((await request.get('/api/auth/users')).status()).toBe(401);
  expect((await request.get('/api/auth/users', { headers: bearer(owner.token) })).status()).toBe(
    403,
  );

  await signInWithToken(page, owner.token, '/admin');
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  expect(await fetchStatus(page, '/api/auth/users', owner.token)).toBe(403);
});
