import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { expectAccessible } from '../support/axe';
import {
  addCollar,
  addPet,
  postReadings,
  registerUser,
  type Account,
  type Collar,
  type TestReading,
} from '../support/api';
import { signInWithToken } from '../support/app';

/** A collar's card on Monitoring, found by its Device ID. */
const monitoringCard = (page: Page, collar: Collar) =>
  page
    .getByRole('list', { name: 'Monitored devices' })
    .getByRole('listitem')
    .filter({ hasText: collar.deviceId });

/** A value in a card's readings (not the same figure quoted in an alert above them). */
const cardValue = (card: ReturnType<typeof monitoringCard>, text: string) =>
  card.getByRole('definition').getByText(text);

/** An owner with a pet wearing a collar. */
async function ownerWithCollar(request: Parameters<typeof registerUser>[0], collarName: string) {
  const owner = await registerUser(request);
  const petId = await addPet(request, owner, 'Biscuit');
  const collar = await addCollar(request, owner, petId, collarName);
  return { owner, collar };
}

/** Proves later that the page was never reloaded: a reload forgets this mark. */
const markPage = (page: Page) =>
  page.evaluate(() => Object.assign(window, { pawguardNoReload: true }));
const stillSamePage = (page: Page) => page.evaluate(() => 'pawguardNoReload' in window);

test('an owner watches a collar live on Monitoring: Connected, and the temperature changes without a reload', async ({
  page,
  request,
}) => {
  const { owner, collar } = await ownerWithCollar(request, 'Biscuit collar');
  await postReadings(request, collar, [
    { temperature: 30, humidity: 50, heart_rate: 92, activity_level: 40, battery: 80 },
  ]);

  await signInWithToken(page, owner.token, '/monitoring');
  await expect(page.getByRole('heading', { name: 'Device Monitoring Dashboard' })).toBeVisible();
  const card = monitoringCard(page, collar);
  await expect(card.getByText('Connected')).toBeVisible();
  await expect(cardValue(card, '30.0°C')).toBeVisible();
  await expect(cardValue(card, '/ 86.0°F')).toBeVisible();
  await expect(card.getByText('92 bpm')).toBeVisible();
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  await markPage(page);

  // The collar keeps reporting, and the dog walks into the sun.
  for (const temperature of [30.5, 31.8, 33.5]) {
    await postReadings(request, collar, [{ temperature, humidity: 52 }]);
    await expect(cardValue(card, `${temperature.toFixed(1)}°C`)).toBeVisible();
  }
  await expect(cardValue(card, '/ 92.3°F')).toBeVisible();
  await expect(cardValue(card, '33.5°C').locator('xpath=ancestor-or-self::dd')).toHaveAttribute(
    'data-changed',
    'true',
  );
  expect(await stillSamePage(page), 'the page was never reloaded').toBe(true);
});

test('a collar whose last reading is 3 minutes old shows Disconnected', async ({
  page,
  request,
}) => {
  const { owner, collar } = await ownerWithCollar(request, 'Quiet collar');
  await postReadings(request, collar, [{ temperature: 24.2, humidity: 48, secondsAgo: 180 }]);

  await signInWithToken(page, owner.token, '/monitoring');
  const card = monitoringCard(page, collar);
  await expect(card.getByText('Disconnected')).toBeVisible();
  await expect(card.getByText('3m ago')).toBeVisible();
  await expect(cardValue(card, '24.2°C')).toBeVisible();
});

/**
 * A week of readings, each stretch as often as its range's buckets (30 min, 3 min, 10 s)
 * need for an unbroken line; in two uploads, as a batch holds at most 1,000.
 */
function aWeekOfReadings(): TestReading[][] {
  const reading = (secondsAgo: number): TestReading => ({
    temperature: 26 + 4 * Math.sin(secondsAgo / 7200),
    humidity: 50 + 10 * Math.cos(secondsAgo / 9000),
    heart_rate: 90 + Math.round(10 * Math.sin(secondsAgo / 3000)),
    secondsAgo,
  });
  const every = (from: number, to: number, step: number) => {
    const list: TestReading[] = [];
    for (let s = from; s > to; s -= step) list.push(reading(s));
    return list;
  };
  return [
    every(7 * 86_400 - 600, 86_400, 1_800),
    [...every(86_400, 3_600, 150), ...every(3_600, 0, 60)],
  ];
}

test('the history chart draws for each range and the last hour stays live', async ({
  page,
  request,
}) => {
  const { owner, collar } = await ownerWithCollar(request, 'History collar');
  for (const batch of aWeekOfReadings()) await postReadings(request, collar, batch);

  // From the collar's card on Monitoring (the pet card's View Activity opens its health
  // dashboard, which has e2e/specs/activity-and-goals.spec.ts).
  await signInWithToken(page, owner.token, '/monitoring');
  // The cards render again as the page's queries arrive: a click on a link being replaced is
  // lost, so it is tried again until the history opens.
  await expect(async () => {
    await page.getByRole('link', { name: 'View history of History collar' }).click();
    await expect(page).toHaveURL(/\/devices\/[^/]+\/history/, { timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'History collar' })).toBeVisible();
  await expect(page.getByText('Warning 29.4°C / 85.0°F')).toBeVisible();
  await expect(page.getByText('Critical 40.6°C / 105.0°F')).toBeVisible();

  for (const range of ['7 days', '24 hours', 'Last hour']) {
    await page.getByRole('tab', { name: range }).click();
    const panel = page.getByRole('tabpanel', { name: range });
    for (const series of ['temperature', 'humidity', 'heart_rate']) {
      await expect(
        panel.getByTestId(`chart-${series}`).locator('.recharts-line-curve'),
        `the ${series} line over ${range}`,
      ).toBeVisible();
    }
    // Each chart is named for what it shows, as a screen reader announces it.
    for (const title of ['Temperature', 'Humidity', 'Heart rate \\(bpm\\)'])
      await expect(
        panel.getByRole('application', { name: new RegExp(`^${title} chart\\. `) }),
      ).toBeVisible();
  }
  await expect(page).toHaveURL(/range=1h$/);

  // The last hour follows the collar: a hot reading raises the highest value.
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  await postReadings(request, collar, [{ temperature: 40, humidity: 50 }]);
  await expect(
    page
      .getByRole('paragraph')
      .filter({ hasText: /highest 40\.0°C \/ 104\.0°F over the last hour/ }),
  ).toBeVisible();
});

for (const viewport of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 812 },
]) {
  test.describe(`live readings at ${viewport.name} width`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    let owner: Account;
    let collar: Collar;
    test.beforeEach(async ({ request }) => {
      ({ owner, collar } = await ownerWithCollar(request, 'Phone collar'));
      await postReadings(request, collar, [
        {
          temperature: 31,
          humidity: 55,
          heart_rate: 95,
          activity_level: 60,
          battery: 15,
          secondsAgo: 600,
        },
        { temperature: 31.4, humidity: 55, heart_rate: 96, activity_level: 61, battery: 15 },
      ]);
    });

    test('Monitoring and a collar’s history are accessible and fit the screen', async ({
      page,
    }) => {
      await signInWithToken(page, owner.token, '/monitoring');
      const card = monitoringCard(page, collar);
      await expect(cardValue(card, '31.4°C')).toBeVisible();
      await expect(card.getByRole('meter', { name: 'Battery' })).toHaveAttribute(
        'data-level',
        'critical',
      );
      await expectAccessible(page, 'Monitoring');

      await card.getByRole('link', { name: /View history/ }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Phone collar' })).toBeVisible();
      await page.getByRole('tab', { name: 'Last hour' }).click();
      await expect(
        page.getByTestId('chart-temperature').locator('.recharts-line-curve'),
      ).toBeVisible();
      await expectAccessible(page, 'the history screen');
    });
  });
}
