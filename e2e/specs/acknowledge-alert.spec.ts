import { expect, test } from '../support/fixtures';
import { addCollar, addPet, bearer, postReadings, registerUser } from '../support/api';
import { signInWithToken, toast } from '../support/app';
import { expectAccessible } from '../support/axe';
import { bodyOf, mailsTo } from '../support/mail';

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

test('a heat alert mail’s Acknowledge link acknowledges from a signed-out browser, and the card says who', async ({
  page,
  request,
  openBrowser,
}) => {
  const owner = await registerUser(request);
  const petId = await addPet(request, owner, 'Rex');
  const collar = await addCollar(request, owner, petId, 'Rex collar');
  // 42 °C is 107.6 °F: above the default critical threshold (105 °F).
  await postReadings(request, collar, [{ temperature: 42, humidity: 40 }]);

  await expect
    .poll(() => mailsTo(owner.email).filter((m) => m.subject.startsWith('[CRITICAL] Rex')))
    .toHaveLength(1);
  const [mail] = mailsTo(owner.email).filter((m) => m.subject.startsWith('[CRITICAL] Rex'));
  const link = /\/acknowledge#([A-Za-z0-9_.-]+)/.exec(bodyOf(mail!.raw));
  expect(link, 'the mail carries an acknowledge link').not.toBeNull();

  // Opened on a phone where nobody is signed in to PawGuard.
  const phone = await openBrowser();
  await phone.setViewportSize({ width: 375, height: 740 });
  const acknowledged = phone.waitForResponse(
    (r) => r.url().endsWith('/api/alerts/acknowledge-link') && r.request().method() === 'POST',
  );
  await phone.goto(`/acknowledge#${link![1]}`);
  expect((await acknowledged).status()).toBe(200);
  const outcome = phone.getByRole('status').filter({ hasText: 'You acknowledged' });
  await expect(outcome).toContainText("You acknowledged Rex's Critical heat alert");
  await expect(outcome).toContainText(
    'PawGuard keeps watching: if it gets worse, you will be told again.',
  );
  await expect(phone.getByText(`Acknowledged by ${owner.name} at`)).toBeVisible();
  await expect(
    phone.getByText('Cool first: pour cool water over the body and fan it, now.'),
  ).toBeVisible();
  // The token is out of the address bar.
  expect(new URL(phone.url()).hash).toBe('');
  await expect(phone.getByRole('link', { name: 'Find an emergency vet' })).toHaveAttribute(
    'href',
    '/emergency',
  );
  await expectAccessible(phone, 'the acknowledge page at 375 px');

  // The owner, signed in elsewhere, sees who is on it, and no Acknowledge left to tap.
  await signInWithToken(page, owner.token, '/monitoring');
  const card = page.locator(`#collar-${collar.id}`);
  await expect(card.getByText(`Acknowledged by ${owner.name} at`)).toBeVisible();
  await expect(card.getByRole('button', { name: /^Acknowledge\b/ })).toHaveCount(0);
  const alerts = await request.get(`/api/devices/${collar.id}/alerts?resolved=false`, {
    headers: bearer(owner.token),
  });
  const [alert] = (await alerts.json()).alerts;
  expect(alert).toMatchObject({ level: 'CRITICAL', acknowledged_by_name: owner.name });
});
