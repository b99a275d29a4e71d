import { expect, test } from '../support/fixtures';
import { addCollar, addPet, bearer, postReadings, registerUser } from '../support/api';
import { signInWithToken, toast } from '../support/app';
import { mailsTo } from '../support/mail';

/** The alert mails an owner has received (not the account's confirmation mail). */
const alertMails = (email: string) => mailsTo(email).filter((m) => /^\[[A-Z ]+\] /.test(m.subject));

test('an owner sets thresholds; a collar crosses them; the bell, the notification and the Monitoring card show the alert live', async ({
  page,
  request,
}) => {
  const owner = await registerUser(request);
  const petId = await addPet(request, owner, 'Rex');
  const collar = await addCollar(request, owner, petId, 'Rex collar');
  await postReadings(request, collar, [{ temperature: 25, humidity: 40 }]);

  // The owner lowers the warning threshold to 80 °F on the settings screen.
  await signInWithToken(page, owner.token, '/notifications');
  await expect(page.getByRole('heading', { name: 'Email Notifications' })).toBeVisible();
  await page.getByLabel('Warning temperature (°F)').fill('80');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(toast(page, 'Notification preferences updated successfully')).toBeVisible();
  const prefs = await request.get('/api/notifications/preferences', {
    headers: bearer(owner.token),
  });
  expect((await prefs.json()).preferences.temperature_threshold).toBe(80);

  await page.goto('/monitoring');
  const card = page.getByRole('listitem').filter({ hasText: collar.deviceId });
  await expect(card.getByText('25.0°C')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Notifications, none unread' })).toBeVisible();

  // 28 °C is 82.4 °F: above the owner's 80 °F, below the default 85 °F.
  await postReadings(request, collar, [{ temperature: 28, humidity: 40 }]);
  const bell = page.getByRole('button', { name: 'Notifications, 1 unread' });
  await expect(bell).toBeVisible();
  const banner = card.getByRole('alert');
  await expect(banner).toContainText('Warning heat alert');
  await expect(banner.getByRole('button', { name: /^Resolve\b/ })).toBeVisible();

  // One mail reaches the mail server, its subject telling the level at a glance.
  await expect
    .poll(() => alertMails(owner.email).map((m) => m.subject))
    .toEqual(['[WARNING] Rex: heat alert at 28.0°C / 82.4°F']);

  await bell.click();
  const sheet = page.getByRole('dialog', { name: 'Notifications' });
  const item = sheet.getByRole('link', { name: /Rex: Warning heat alert/ });
  await expect(item).toBeVisible();
  await sheet.getByRole('button', { name: /^Mark read/ }).click();
  await expect(sheet.getByText('You are all caught up.')).toBeVisible();
  await item.click();
  await expect(page).toHaveURL(new RegExp(`/devices/${collar.id}/history`));
  await expect(page.getByRole('region', { name: 'Open alerts' })).toContainText(
    'Warning heat alert',
  );

  // Resolved by the owner: gone from the device page, listed among past alerts.
  await page
    .getByRole('region', { name: 'Open alerts' })
    .getByRole('button', { name: /^Resolve\b/ })
    .click();
  await expect(page.getByRole('region', { name: 'Open alerts' })).toHaveCount(0);
  await expect(page.getByText('(resolved by you)')).toBeVisible();
});

test('the bell works by keyboard and on a phone', async ({ page, request }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const owner = await registerUser(request);
  const petId = await addPet(request, owner, 'Bella');
  const collar = await addCollar(request, owner, petId, 'Bella collar');
  await postReadings(request, collar, [{ temperature: 42, humidity: 30 }]);
  await signInWithToken(page, owner.token, '/');
  const bell = page.getByRole('button', { name: 'Notifications, 1 unread' });
  await expect(bell).toBeVisible();
  await bell.focus();
  await page.keyboard.press('Enter');
  const sheet = page.getByRole('dialog', { name: 'Notifications' });
  await expect(sheet.getByRole('link', { name: /Bella: Critical heat alert/ })).toBeVisible();
  const box = (await sheet.boundingBox())!;
  expect(box.width).toBeLessThanOrEqual(375);
  await page.keyboard.press('Escape');
  await expect(sheet).toHaveCount(0);
  await expect(bell).toBeFocused();
  // The dog's home card shows the open alert too.
  await expect(page.getByRole('alert').filter({ hasText: 'Critical heat alert' })).toBeVisible();
});

test('the settings screen sends a test email that reaches the mail server', async ({
  page,
  request,
}) => {
  const owner = await registerUser(request);
  await signInWithToken(page, owner.token, '/notifications');
  const send = page.getByRole('button', { name: 'Send Test Email' });
  await expect(send).toBeEnabled();
  await send.click();
  await expect(toast(page, 'Test Email Sent')).toBeVisible();
  await expect(toast(page, `Test email sent to ${owner.email}.`)).toBeVisible();
  await expect
    .poll(() => mailsTo(owner.email).map((m) => m.subject))
    .toContain('[TEST] [WARNING] Test Pet: heat alert at 32.2°C / 90.0°F');

  // With e-mails off, the frequency and the test button wait until they are on again.
  await page.getByRole('switch', { name: 'Email alerts' }).click();
  await expect(send).toBeDisabled();
  await expect(page.getByLabel('Email frequency')).toBeDisabled();
});
