import { expect, test } from '../support/fixtures';
import { addCollar, addPet, bearer, postReadings, registerUser } from '../support/api';
import { signInWithToken, toast } from '../support/app';

test('an owner acknowledges a heat alert: it stays open and quiet while as hot, and says so', async ({
  page,
  request,
}) => {
  const owner = await registerUser(request);
  const petId = await addPet(request, owner, 'Rex');
  const collar = await addCollar(request, owner, petId, 'Rex collar');
  // 31 °C is 87.8 °F: above the default warning threshold (85 °F).
  await postReadings(request, collar, [{ temperature: 31, humidity: 30 }]);

  await signInWithToken(page, owner.token, `/devices/${collar.id}/history`);
  const open = page.getByRole('region', { name: 'Open alerts' });
  await expect(open).toContainText('Warning heat alert');
  await expect(page.getByRole('button', { name: 'Notifications, 1 unread' })).toBeVisible();
  // Before: what Resolve would lead to while the dog is still hot.
  await expect(open.getByRole('button', { name: /^Resolve\b/ })).toHaveAccessibleDescription(
    'If you resolve it while still hot (Warning or above), PawGuard opens a new alert and tells you again.',
  );

  await open.getByRole('button', { name: 'Acknowledge heat alert for Rex' }).click();
  await expect(toast(page, 'Alert acknowledged')).toBeVisible();
  await expect(open).toContainText(
    'Acknowledged: no repeat alerts while it stays like this. PawGuard keeps watching and tells you if it gets worse.',
  );
  await expect(page.getByRole('button', { name: 'Notifications, none unread' })).toBeVisible();

  // Still as hot: the same alert, nothing new to read.
  await postReadings(request, collar, [{ temperature: 31.2, humidity: 30 }]);
  const alerts = await request.get(`/api/devices/${collar.id}/alerts?resolved=false`, {
    headers: bearer(owner.token),
  });
  expect((await alerts.json()).alerts).toHaveLength(1);
  await expect(page.getByRole('button', { name: 'Notifications, none unread' })).toBeVisible();
  await expect(open.getByRole('button', { name: /^Acknowledge\b/ })).toHaveCount(0);
});
