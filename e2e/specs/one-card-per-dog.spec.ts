import type { APIRequestContext, Locator } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import {
  addCollar,
  addPet,
  bearer,
  postReadings,
  randomMac,
  registerUser,
  type Account,
  type Collar,
} from '../support/api';
import { signInWithToken, toast } from '../support/app';
import { expectAccessible } from '../support/axe';

const PHONE = { width: 375, height: 800 };
const LAPTOP = { width: 1280, height: 800 };

/**
 * A French Bulldog, 40 minutes of hard exercise at 29 °C (84.2 °F) and 65 % humidity (the
 * model's "Exertion in the warmth" scenario, docs/heat-risk.md): the owner's thresholds
 * (85 °F, 105 °F) stay Safe, the heat-risk model says Danger. A model-only alert.
 */
const exercising = (minutesAgo: number, warmUp = false) => ({
  temperature: 29,
  humidity: 65,
  activity_level: warmUp ? 10 : 85,
  heart_rate: warmUp ? 90 : 160,
  secondsAgo: minutesAgo * 60,
});

async function frenchieExercising(
  request: APIRequestContext,
  owner: Account,
  name: string,
  /** How long ago the last reading was taken. */
  silentMinutes = 0,
): Promise<Collar> {
  const created = await request.post('/api/dogs', {
    headers: bearer(owner.token),
    data: {
      name,
      breed: 'French Bulldog',
      age: 4,
      weight: 26,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const petId = ((await created.json()) as { dog: { id: string } }).dog.id;
  const collar = await addCollar(request, owner, petId, `${name} collar`);
  await postReadings(
    request,
    collar,
    Array.from({ length: 41 }, (_, i) => exercising(40 - i + silentMinutes, i < 2)),
  );
  return collar;
}

/** The same exercise, now: the reading stays fresh (under 2 minutes) for the next screen. */
const keepFresh = (request: APIRequestContext, collar: Collar) =>
  postReadings(request, collar, [exercising(0)]);

/** The level a card shows under the spec's 'Safe zone'. */
const safeZone = (card: Locator) => card.locator('dt:text-is("Safe zone") + dd');

for (const viewport of [PHONE, LAPTOP]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('a model-only alert shows one level on the dashboard, My Pets, Monitoring and the device page, the worst dog first', async ({
      page,
      request,
    }) => {
      // Four screens and two accessibility scans: on a busy 2-core machine, past a minute.
      test.slow();
      const owner = await registerUser(request);
      // Named to come first by name: it must come second by worry.
      const aaron = await addPet(request, owner, 'Aaron');
      const aaronCollar = await addCollar(request, owner, aaron, 'Aaron collar');
      await postReadings(request, aaronCollar, [{ temperature: 22, humidity: 45 }]);
      const collar = await frenchieExercising(request, owner, 'Biscuit');
      const device = (await (
        await request.get(`/api/devices/${collar.id}`, { headers: bearer(owner.token) })
      ).json()) as { device: { vitals_status: string; threshold_status: string } };
      expect(device.device).toMatchObject({ vitals_status: 'DANGER', threshold_status: 'SAFE' });

      // The dashboard: Biscuit first, Danger, one line of why, what to do on demand.
      await signInWithToken(page, owner.token, '/');
      const dogs = page.getByRole('region', { name: 'Your dogs now' });
      await expect(dogs.getByRole('article')).toHaveCount(2);
      await expect(dogs.getByRole('article').first()).toHaveAccessibleName('Biscuit');
      const home = dogs.getByRole('article', { name: 'Biscuit' });
      await expect(safeZone(home)).toHaveText('Danger');
      await expect(safeZone(dogs.getByRole('article', { name: 'Aaron' }))).toHaveText('Safe');
      await expect(home.locator('[data-why-line]')).toContainText(
        /exercise for \d+ minutes in the warmth/,
      );
      await expect(home.getByText('Body temperature (collar)')).toBeVisible();
      await expect(home.getByText(/^Updated (just now|\d+s ago)$/)).toBeVisible();
      await expect(home.getByRole('alert')).toContainText('Danger heat alert');
      await expect(
        home.getByRole('button', { name: /^Resolve heat alert for Biscuit/ }),
      ).toBeVisible();
      // What to do, from the keyboard.
      await expect(home.getByText('Call your vet.')).toBeHidden();
      await home.getByText('What to do and why').focus();
      await page.keyboard.press('Enter');
      await expect(home.getByText('Call your vet.')).toBeVisible();
      await expect(home.getByText(/about \d+× the risk/).first()).toBeVisible();
      await expect(home.getByText(/^Heat risk:/)).toHaveCount(0);
      await expectAccessible(page, 'dashboard with a model-only alert');

      // My Pets: the list first on a phone, the spec's Danger badge, tall name targets.
      await keepFresh(request, collar);
      await signInWithToken(page, owner.token, '/my-pets');
      const list = page.getByRole('region', { name: /All Pets/ });
      const biscuitItem = list.getByRole('listitem').filter({ hasText: 'Biscuit' });
      await expect(biscuitItem.locator('[data-status="danger"]')).toHaveText('Danger');
      const listBox = (await list.boundingBox())!;
      const detailBox = (await page.locator('#pet-detail-title').boundingBox())!;
      if (viewport === PHONE) {
        expect(listBox.y).toBeLessThan(detailBox.y);
        expect(listBox.y).toBeLessThan(viewport.height);
      }
      const nameButton = list.getByRole('button', { name: 'Biscuit — show details' });
      expect((await nameButton.boundingBox())!.height).toBeGreaterThanOrEqual(44);
      await nameButton.click();
      const detail = page.locator('[aria-labelledby="pet-detail-title"]');
      await expect(safeZone(detail)).toHaveText('Danger');

      // Monitoring: Biscuit's collar first, the same level.
      await keepFresh(request, collar);
      await page.goto('/monitoring');
      const cards = page.getByRole('list', { name: 'Monitored devices' }).getByRole('listitem');
      await expect(cards).toHaveCount(2);
      await expect(cards.first().getByRole('heading', { level: 2 })).toHaveText('Biscuit collar');
      await expect(safeZone(cards.first())).toHaveText('Danger');
      await expect(cards.first().getByText('Connected', { exact: true })).toBeVisible();
      await expect(safeZone(cards.nth(1))).toHaveText('Safe');
      await expectAccessible(page, 'Monitoring with a model-only alert');

      // The device page: the same level, and what heat risk added in an owner's words.
      await keepFresh(request, collar);
      await page.goto(`/devices/${collar.id}/history`);
      const latest = page.getByRole('region', { name: 'Latest reading' });
      await expect(safeZone(latest)).toHaveText('Danger');
      const panel = page.getByRole('region', { name: 'What heat-risk adds' });
      await expect(panel).toContainText(
        /Last 7 days: \d+ alerts? the thresholds alone would have missed\./,
      );
      await expect(panel.getByRole('table')).toBeHidden();
      await panel.getByText('Details').click();
      await expect(panel.getByRole('table')).toBeVisible();
    });

    test('a silent collar dims its level and keeps its open alert; firmware stays an admin’s', async ({
      page,
      request,
    }) => {
      const owner = await registerUser(request);
      // The exercise ended 3 minutes ago, and the collar has said nothing since.
      const collar = await frenchieExercising(request, owner, 'Pepper', 3);
      // The collar reports its firmware, as a real one does.
      const reported = await request.post('/api/devices/self-register', {
        headers: { Authorization: `Device ${collar.key}` },
        data: { firmware_version: 'collar-sim 1.0', device_address: randomMac() },
      });
      expect(reported.status(), await reported.text()).toBe(200);
      await signInWithToken(page, owner.token, '/monitoring');
      const card = page.getByRole('list', { name: 'Monitored devices' }).getByRole('listitem');
      await expect(card.getByText('Disconnected', { exact: true })).toBeVisible();
      const word = safeZone(card).locator('[data-level]');
      await expect(word).toHaveAttribute('data-stale', 'true');
      await expect(word).toHaveText(/Last known\s*Danger/);
      await expect(card.getByRole('alert')).toContainText('Danger heat alert');
      await expect(card.getByText(/^Updated \dm ago$/)).toBeVisible();

      await page.goto('/devices');
      await expect(page.getByRole('heading', { name: 'Pepper collar' })).toBeVisible();
      await expect(page.getByText('collar-sim 1.0')).toHaveCount(0);
      await expect(page.getByText('Firmware')).toHaveCount(0);
    });
  });
}

test.describe('at 375 px', () => {
  test.use({ viewport: PHONE });

  test('the dashboard’s Add a pet opens the sheet, and the toast leaves the new pet in view', async ({
    page,
    request,
  }) => {
    const owner = await registerUser(request);
    await signInWithToken(page, owner.token, '/');
    await page.getByRole('link', { name: 'Add a pet' }).click();
    const sheet = page.getByRole('dialog', { name: 'Add New Pet' });
    await expect(sheet).toBeVisible();
    await sheet.getByLabel(/^Name/).fill('Nova');
    await sheet.getByRole('button', { name: 'Add Pet' }).click();
    const added = toast(page, 'Pet added successfully');
    await expect(added).toBeVisible();
    const bar = (await page.getByRole('banner').boundingBox())!;
    // Below the header, not over it (judged once it has slid in); and not over the pet it
    // announces.
    await expect
      .poll(async () => (await added.boundingBox())!.y)
      .toBeGreaterThanOrEqual(bar.y + bar.height);
    const note = (await added.boundingBox())!;
    // At the top on a phone: at the bottom it sat over the screen's buttons and results.
    expect(note.y).toBeLessThan(PHONE.height / 4);
    const item = (await page
      .getByRole('region', { name: /All Pets/ })
      .getByRole('listitem')
      .filter({ hasText: 'Nova' })
      .boundingBox())!;
    const overlaps = note.y < item.y + item.height && item.y < note.y + note.height;
    expect(overlaps).toBe(false);
  });
});
