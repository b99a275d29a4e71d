import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import {
  addPet,
  bearer,
  loginAsAdmin,
  prePopulateCollar,
  randomMac,
  registerUser,
  uniqueName,
} from '../support/api';
import { adminCredentials } from '../support/env';
import { signInThroughForm, signInWithToken, toast } from '../support/app';

// Auto-assign takes any free collar: journeys that add or take collars run one after another,
// so one never takes the collar another has just pre-populated for its owner.
test.describe.configure({ mode: 'serial' });

const deviceCard = (page: Page, deviceId: string) =>
  page
    .getByRole('list', { name: 'Your devices' })
    .getByRole('listitem')
    .filter({ hasText: deviceId });

async function registerCollar(page: Page, petName: string, deviceName: string, deviceId: string) {
  await page.goto('/devices');
  await expect(page.getByRole('heading', { name: 'Device Management' })).toBeVisible();
  await page.getByRole('button', { name: 'Register Device' }).first().click();
  const sheet = page.getByRole('dialog', { name: 'Register Device' });
  await sheet.getByLabel('Pet *').selectOption({ label: petName });
  await sheet.getByLabel('Device Name *').fill(deviceName);
  await sheet.getByLabel('Device ID *').fill(deviceId);
  await sheet.getByRole('button', { name: 'Register Device' }).click();
  return sheet;
}

test('an admin pre-populates a collar, an owner registers it for a new pet, and a second owner is refused it', async ({
  page,
  request,
  openBrowser,
}) => {
  // Three people in three browsers: more time than a one-person journey.
  test.slow();

  // The admin pre-populates a collar and sees its key once.
  await signInThroughForm(page, adminCredentials.email, adminCredentials.password);
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  await page.getByRole('link', { name: 'Admin Portal' }).first().click();
  await expect(page.getByRole('heading', { name: 'Admin Portal' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Pre-populate Device' });
  await form.getByRole('button', { name: 'Generate' }).click();
  const idInput = form.getByLabel('Device ID *');
  await expect(idInput).toHaveValue(/^PET-[A-Z0-9]{4}$/);
  const deviceId = await idInput.inputValue();
  await form.getByLabel('MAC Address *').fill(randomMac());
  await form.getByRole('button', { name: 'Pre-populate Device' }).click();
  await expect(toast(page, `Device ${deviceId} pre-populated successfully`)).toBeVisible();
  await expect(page.getByRole('textbox', { name: `Key for ${deviceId}` })).toHaveValue(/.{20,}/);
  await expect(page.getByText('It is shown only this once')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Existing devices' })).toContainText(deviceId);

  // An owner adds a pet and registers that collar by its Device ID.
  const owner = await registerUser(request);
  const ownerPage = await openBrowser();
  const petName = uniqueName('Biscuit');
  await signInWithToken(ownerPage, owner.token, '/my-pets');
  await expect(ownerPage.getByRole('heading', { name: 'My Pets' })).toBeVisible();
  await expect(ownerPage.getByText('No pets yet')).toBeVisible();
  await ownerPage.getByRole('button', { name: 'Add Pet', exact: true }).click();
  const addSheet = ownerPage.getByRole('dialog', { name: 'Add New Pet' });
  await expect(addSheet.getByRole('button', { name: 'Add Pet' })).toBeDisabled();
  await addSheet.getByLabel('Name *').fill(petName);
  await addSheet.getByLabel('Breed').fill('Beagle');
  await addSheet.getByLabel('Age (years)').fill('4');
  await addSheet.getByLabel('Weight (lbs)').fill('22.5');
  await addSheet.getByRole('button', { name: 'Add Pet' }).click();
  await expect(toast(ownerPage, 'Pet added successfully')).toBeVisible();
  await expect(addSheet).toBeHidden();
  await expect(ownerPage.getByRole('heading', { name: petName }).first()).toBeVisible();
  await expect(ownerPage.getByText('1 pet registered')).toBeVisible();

  const sheet = await registerCollar(
    ownerPage,
    petName,
    `${petName}'s collar`,
    deviceId.toLowerCase(),
  );
  await expect(toast(ownerPage, 'Device Assigned Successfully!')).toBeVisible();
  await expect(sheet).toBeHidden();
  const card = deviceCard(ownerPage, deviceId);
  await expect(card.getByRole('heading', { name: `${petName}'s collar` })).toBeVisible();
  await expect(card).toContainText(`On ${petName}`);
  await expect(card).toContainText('Registered');
  await expect(card).toContainText('No vitals data yet');

  // A second owner trying the same Device ID is refused.
  const other = await registerUser(request);
  await addPet(request, other, 'Pepper');
  const otherPage = await openBrowser();
  await signInWithToken(otherPage, other.token, '/devices');
  const otherSheet = await registerCollar(otherPage, 'Pepper', 'My collar', deviceId);
  const refused = toast(otherPage, 'Device Already Assigned');
  await expect(refused).toBeVisible();
  await expect(refused).toContainText(`Device ${deviceId} is already assigned to another user.`);
  await expect(otherSheet).toBeVisible();
});

test('an owner edits and deletes a pet', async ({ page, request }) => {
  const owner = await registerUser(request);
  await addPet(request, owner, 'Biscuit');
  const renamed = uniqueName('Biscuit');

  await signInWithToken(page, owner.token, '/my-pets');
  await expect(page.getByRole('heading', { name: 'Biscuit', exact: true }).first()).toBeVisible();
  await page.getByRole('button', { name: 'Edit Biscuit' }).click();
  const editSheet = page.getByRole('dialog', { name: 'Edit Pet' });
  await expect(editSheet.getByLabel('Name *')).toHaveValue('Biscuit');
  await editSheet.getByLabel('Name *').fill(renamed);
  await editSheet.getByLabel('Weight (lbs)').fill('23.4');
  await editSheet.getByRole('button', { name: 'Update Pet' }).click();
  await expect(toast(page, 'Pet updated successfully!')).toBeVisible();
  await expect(editSheet).toBeHidden();
  await expect(page.getByText('23.4 lbs').first()).toBeVisible();

  await page.getByRole('button', { name: `Delete ${renamed}` }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText(`Delete ${renamed}?`);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page, 'Pet deleted successfully!')).toBeVisible();
  await expect(page.getByText('No pets yet')).toBeVisible();
});

test('an owner auto-assigns a collar and reaches the success screen', async ({ page, request }) => {
  await prePopulateCollar(request);
  const owner = await registerUser(request);
  await addPet(request, owner, 'Pepper');

  await signInWithToken(page, owner.token, '/register-device');
  await expect(page.getByRole('heading', { name: 'Register Device' })).toBeVisible();
  await expect(page.getByLabel('Pet', { exact: true })).toHaveValue(/.+/);
  await page.getByLabel('Device Name', { exact: true }).fill("Pepper's collar");
  await page.getByRole('button', { name: 'Assign Collar' }).click();

  await expect(page.getByRole('heading', { name: 'Collar Assigned!' })).toBeVisible();
  await expect(page.getByText('Check your email for setup instructions')).toBeVisible();
  const shownId = await page.getByRole('definition').textContent();
  expect(shownId).toMatch(/^PET-[A-Z0-9]{4}$/);
  await page.getByRole('link', { name: 'View My Devices' }).click();
  await expect(page).toHaveURL('/devices');
  await expect(page.getByRole('heading', { name: "Pepper's collar" })).toBeVisible();
  await expect(deviceCard(page, shownId ?? 'no Device ID shown')).toContainText('On Pepper');
});

test('a user opening /admin sees Access Denied', async ({ page, request }) => {
  const owner = await registerUser(request);
  await signInWithToken(page, owner.token, '/admin');
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  await expect(toast(page, 'You need admin privileges to access this page')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Admin Portal' })).toHaveCount(0);
});

test('an owner reads a waiting collar plainly and an admin sees it never connected, at 375 and 1280 px', async ({
  page,
  request,
}) => {
  const owner = await registerUser(request);
  const petName = uniqueName('Scout');
  await addPet(request, owner, petName);
  const pets = (await (
    await request.get('/api/dogs', { headers: bearer(owner.token) })
  ).json()) as { dogs: { id: string }[] };
  const deviceId = await prePopulateCollar(request);
  const longName = `Backyard collar with a very long name ${deviceId}`.slice(0, 50);
  const assigned = await request.post(`/api/devices/assign/${deviceId}`, {
    headers: bearer(owner.token),
    data: { dog_id: pets.dogs[0]!.id, device_name: longName, device_type: 'collar' },
  });
  expect(assigned.status(), await assigned.text()).toBe(200);

  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await signInWithToken(page, owner.token, '/devices');
    const card = deviceCard(page, deviceId);
    // Not 'Device Connected' while Monitoring says Disconnected: it has never sent a reading.
    await expect(card).not.toContainText('Device Connected');
    await expect(card).toContainText('Waiting for the first reading');
    await expect(card).not.toContainText('Never');
    // The name may be cut short on screen; its tooltip holds all of it.
    await expect(card.getByRole('heading', { name: longName })).toHaveAttribute('title', longName);
  }

  const admin = await loginAsAdmin(request);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await signInWithToken(page, admin.token, '/admin/devices');
    await page.getByLabel('Search devices').fill(deviceId);
    const adminCard = page.getByRole('list', { name: 'Devices' }).getByRole('listitem');
    await expect(adminCard).toHaveCount(1);
    await expect(adminCard).toContainText('Never connected');
    await expect(adminCard).not.toContainText('Offline');
    await expect(adminCard).not.toContainText('Online');
    // 'No devices match these filters.' (a filter alone) is proven in all-devices-page.test.tsx:
    // other journeys of this run post readings, so no filter is sure to be empty here.
  }
});
