import { expect, test } from '../support/fixtures';
import { addCollar, addPet, bearer, postReadings, registerUser } from '../support/api';
import { signInWithToken, toast } from '../support/app';
import { mailsTo } from '../support/mail';

test('an owner tells PawGuard about the dog; a parked car shows as a critical heat risk with why, first aid and the emergency vet', async ({
  page,
  request,
}) => {
  const owner = await registerUser(request);
  const petId = await addPet(request, owner, 'Coco');
  const collar = await addCollar(request, owner, petId, 'Coco collar');

  // The pet sheet asks, optionally, what helps judge heat risk.
  await signInWithToken(page, owner.token, '/my-pets');
  await page.getByRole('button', { name: 'Edit Coco' }).click();
  const sheet = page.getByRole('dialog', { name: 'Edit Pet' });
  const details = sheet.getByRole('group', { name: 'Heat-risk details' });
  await expect(details).toContainText('helps PawGuard judge heat risk');
  await sheet.getByLabel('Breed').fill('French Bulldog');
  await details.getByLabel('Sex').selectOption('female');
  await details.getByLabel('Body condition').selectOption('6');
  await details.getByLabel(/^Airway/).check();
  await sheet.getByRole('button', { name: 'Update Pet' }).click();
  await expect(toast(page, 'Pet updated successfully!')).toBeVisible();
  const dog = await request.get(`/api/dogs`, { headers: bearer(owner.token) });
  expect((await dog.json()).dogs[0]).toMatchObject({
    breed: 'French Bulldog',
    sex: 'female',
    body_condition: 6,
    health_conditions: ['airway'],
  });

  // The last half hour in a parked car: the collar climbs steadily while the dog lies still,
  // and uploads it in one go. The owner's thresholds alone would say WARNING at most.
  await postReadings(
    request,
    collar,
    Array.from({ length: 61 }, (_, i) => ({
      temperature: 24 + 14 * (1 - Math.exp(-i / 2 / 19)),
      humidity: 45,
      activity_level: 4,
      heart_rate: 100,
      secondsAgo: (60 - i) * 30,
    })),
  );

  await page.goto('/monitoring');
  const card = page.getByRole('listitem').filter({ hasText: collar.deviceId });
  // One level per dog: 'Safe zone' says the Critical the model raised, with its leading
  // reason in one line; what to do on demand.
  await expect(card.locator('dt:text-is("Safe zone") + dd')).toHaveText('Critical');
  await expect(card.locator('[data-why-line]')).toContainText('the pattern of a parked car');
  await expect(card.getByRole('alert')).toContainText('Critical heat alert');
  await card.getByText('What to do and why').click();
  await expect(card.getByText(/^Cool first/)).toBeVisible();
  // Said once, not by the alert and the card both.
  await expect(card.getByRole('link', { name: 'Find an emergency vet' })).toHaveCount(1);
  await card.getByRole('link', { name: 'Find an emergency vet' }).click();
  await expect(page).toHaveURL(/\/emergency/);

  // The critical alert's mail reached the mail server and says why in one line.
  await expect
    .poll(() =>
      mailsTo(owner.email)
        .filter((m) => m.subject.startsWith('[CRITICAL] Coco'))
        .map((m) => m.raw.replace(/=\r?\n/g, '')),
    )
    .toEqual([expect.stringMatching(/Why: collar temperature climbing steadily .*parked car/)]);

  // The device page tells what the model adds over the plain thresholds.
  await page.goto(`/devices/${collar.id}/history`);
  const panel = page.getByRole('region', { name: 'What heat-risk adds' });
  await expect(panel).toContainText('Last 7 days:');
  await panel.getByText('Details').click();
  await expect(panel).toContainText('Over the last 7 days');
  const highest = panel.getByRole('row', { name: /Highest level/ });
  await expect(highest.getByRole('cell')).toHaveText([/Warning/, /Critical/]);
});

test('a collar left on a sunny windowsill shows "Collar off?" and raises no heat alert', async ({
  page,
  request,
}) => {
  const owner = await registerUser(request);
  const petId = await addPet(request, owner, 'Biscuit');
  const collar = await addCollar(request, owner, petId, 'Biscuit collar');

  // Twenty minutes on the dog, then twenty on a sill in the sun: no heart rate, no movement,
  // and the collar heating past the owner's warning threshold (85 °F) to 36 °C. (Past the
  // critical threshold the alert would open all the same, saying the collar may be off:
  // decision 0034.)
  await postReadings(request, collar, [
    ...Array.from({ length: 20 }, (_, i) => ({
      temperature: 24,
      humidity: 50,
      activity_level: 6,
      heart_rate: 92,
      secondsAgo: (40 - i) * 60,
    })),
    ...Array.from({ length: 21 }, (_, i) => ({
      temperature: Math.min(24 + i, 36),
      humidity: 35,
      activity_level: 0,
      secondsAgo: (20 - i) * 60,
    })),
  ]);

  await signInWithToken(page, owner.token, '/monitoring');
  const card = page.getByRole('listitem').filter({ hasText: collar.deviceId });
  // The card's state (exactly "Collar off?"); by day the owner's in-app note about it, which
  // starts with the same words, may show beside it.
  await expect(card.getByText('Collar off?', { exact: true })).toBeVisible();
  await expect(card).not.toContainText('heat alert');
  const alerts = await request.get(`/api/devices/${collar.id}/alerts`, {
    headers: bearer(owner.token),
  });
  expect(
    ((await alerts.json()) as { alerts: { type: string }[] }).alerts.filter(
      (a) => a.type === 'heat',
    ),
  ).toEqual([]);
});
