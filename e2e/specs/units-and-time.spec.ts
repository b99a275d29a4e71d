import { expect, test } from '../support/fixtures';
import { expectAccessible } from '../support/axe';
import { addCollar, addPet, postReadings, registerUser } from '../support/api';
import { signInWithToken, toast } from '../support/app';
import { bodyOf, mailsTo } from '../support/mail';

test('an owner who reads °C first chooses it once: Monitoring, My Pets and the next alert mail follow', async ({
  page,
  request,
}) => {
  // An account from a US browser: °F first and lbs.
  const owner = await registerUser(request, { temperature_unit: 'F', weight_unit: 'lbs' });
  const petId = await addPet(request, owner, 'Rex'); // 22.5 lbs
  const collar = await addCollar(request, owner, petId, 'Rex collar');
  // 31 °C is 87.8 °F: over the default warning threshold (85 °F), a Warning heat alert.
  await postReadings(request, collar, [{ temperature: 31, humidity: 40 }]);

  await signInWithToken(page, owner.token, '/monitoring');
  const card = page
    .getByRole('list', { name: 'Monitored devices' })
    .getByRole('listitem')
    .filter({ hasText: collar.deviceId });
  const reading = card.getByRole('definition').filter({ hasText: '31.0°C' });
  await expect(reading).toHaveText(/^87\.8°F\s*\/\s*31\.0°C$/);
  await expect
    .poll(() => mailsTo(owner.email).map((m) => m.subject))
    .toContain('[WARNING] Rex: heat alert at 87.8°F / 31.0°C');

  // On a phone, the settings screen: the °F thresholds stay, each with its °C beside it.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/notifications');
  const warning = page.getByLabel('Warning temperature (°F)');
  await expect(warning).toHaveValue('85');
  await expect(page.getByText('= 29.4°C')).toBeVisible();
  await warning.fill('90');
  await expect(page.getByText('= 32.2°C')).toBeVisible();

  const units = page.getByRole('form', { name: 'Units and time' });
  await expect(units.getByRole('radio', { name: '°F first' })).toBeChecked();
  // By keyboard: the arrow keys move within each group of choices.
  await units.getByRole('radio', { name: '°F first' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(units.getByRole('radio', { name: '°C first' })).toBeChecked();
  await units.getByRole('radio', { name: 'kg' }).check();
  await units.getByLabel('Time zone').selectOption('Europe/Berlin');
  await expectAccessible(page, 'the settings screen at 375 px');
  await units.getByRole('button', { name: 'Save units and time' }).click();
  await expect(toast(page, 'Units and time zone saved')).toBeVisible();

  // Every screen now leads with °C, and weights are in kg.
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/monitoring');
  await expect(reading).toHaveText(/^31\.0°C\s*\/\s*87\.8°F$/);
  // Times on screen are on the account's clock now; a browser elsewhere is told whose.
  if (Intl.DateTimeFormat().resolvedOptions().timeZone !== 'Europe/Berlin')
    await expect(page.getByText(/Times in Europe\/Berlin/)).toBeVisible();
  await page.goto('/my-pets');
  await expect(page.getByText(/\b10\.2 kg\b/).first()).toBeVisible();

  // The next alert mail: °C first, °F named too, the time on the owner's clock.
  await postReadings(request, collar, [{ temperature: 42, humidity: 40 }]);
  await expect
    .poll(() => mailsTo(owner.email).filter((m) => m.subject.startsWith('[CRITICAL] Rex')))
    .toHaveLength(1);
  const [critical] = mailsTo(owner.email).filter((m) => m.subject.startsWith('[CRITICAL] Rex'));
  expect(critical!.subject).toMatch(/at 42\.0°C \/ 107\.6°F$/);
  const body = bodyOf(critical!.raw);
  expect(body).toContain('Temperature: 42.0°C / 107.6°F');
  expect(body).toMatch(/When: \d{4}-\d\d-\d\d \d\d:\d\d (CES?T|GMT\+[12])/);
});
