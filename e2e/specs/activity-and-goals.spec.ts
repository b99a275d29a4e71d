import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { expectAccessible } from '../support/axe';
import {
  addCollar,
  addPet,
  bearer,
  postReadings,
  registerUser,
  type Account,
  type Collar,
  type TestReading,
} from '../support/api';
import { signInWithToken, toast } from '../support/app';

const PHONE = { width: 375, height: 800 };
const LAPTOP = { width: 1280, height: 800 };

/**
 * A minute a reading: `walking` minutes of a brisk walk (activity 65: vigorous, docs/activity.md)
 * ending `endMinutesAgo` minutes ago, after `restBefore` calm minutes. 22 °C, 45 %: Safe.
 */
function aWalk(walking: number, endMinutesAgo: number, restBefore = 0): TestReading[] {
  const readings: TestReading[] = [];
  for (let m = endMinutesAgo + walking + restBefore; m > endMinutesAgo; m--) {
    const moving = m <= endMinutesAgo + walking;
    readings.push({
      temperature: 22,
      humidity: 45,
      heart_rate: moving ? 120 : 80,
      activity_level: moving ? 65 : 5,
      battery: 90,
      secondsAgo: m * 60,
    });
  }
  return readings;
}

/** Today's active minutes as the API gives them, once the activity job has folded them in. */
async function activeToday(request: APIRequestContext, owner: Account, petId: string) {
  const response = await request.get(`/api/dogs/${petId}/activity?days=1`, {
    headers: bearer(owner.token),
  });
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as { days: { active_minutes: number }[] };
  return body.days.at(-1)?.active_minutes ?? 0;
}

/**
 * A zone where it is about noon now (Etc/GMT-N is N hours ahead of UTC), so that the walks of
 * the last two hours fall on the owner's today whenever the suite runs.
 */
function zoneAtNoon(now = new Date()): string {
  const ahead = Math.max(-11, Math.min(12, 12 - now.getUTCHours()));
  return ahead === 0 ? 'Etc/UTC' : `Etc/GMT${ahead > 0 ? '-' : '+'}${Math.abs(ahead)}`;
}

/** An owner whose Beagle (a suggested 60 minutes a day) walked 25 minutes this morning. */
async function beagleAfterAWalk(request: APIRequestContext) {
  const owner = await registerUser(request, { time_zone: zoneAtNoon() });
  const petId = await addPet(request, owner, 'Biscuit');
  const collar = await addCollar(request, owner, petId, 'Biscuit collar');
  // The walk ended 40 minutes ago (clear of a second walk in the last quarter of an hour),
  // then calm minutes up to now: a fresh reading keeps the card's level current.
  await postReadings(request, collar, [...aWalk(25, 40, 20), ...aWalk(0, 0, 39)]);
  // The activity job folds completed minutes within about a minute.
  await expect
    .poll(() => activeToday(request, owner, petId), { timeout: 150_000, intervals: [5_000] })
    .toBe(25);
  return { owner, petId, collar };
}

const dogCard = (page: Page) =>
  page.getByRole('article').filter({ has: page.getByRole('link', { name: 'Biscuit' }) });

for (const viewport of [PHONE, LAPTOP]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("an owner sees the walk against the dog's goal, sets a goal of their own, and reads the health dashboard over 7, 30 and 90 days", async ({
      page,
      request,
    }) => {
      test.setTimeout(240_000);
      const { owner, petId } = await beagleAfterAWalk(request);

      await signInWithToken(page, owner.token, '/');
      const card = dogCard(page);
      const progress = card.getByRole('progressbar', { name: "Biscuit's activity today" });
      await expect(progress).toHaveAttribute('aria-valuetext', '25 of 60 min');
      await expect(card.getByText('25 of 60 min')).toBeVisible();

      // Her own goal: 20 minutes, which the walk meets.
      await card.getByRole('button', { name: 'Edit goal for Biscuit' }).click();
      const dialog = page.getByRole('dialog', { name: 'Daily activity goal' });
      await expect(dialog.getByText(/PawGuard suggests 60 min a day/)).toBeVisible();
      await dialog.getByLabel('Minutes a day').fill('400');
      await dialog.getByRole('button', { name: 'Save goal' }).click();
      await expect(dialog.getByText('Enter a whole number of minutes from 5 to 300')).toBeVisible();
      await dialog.getByLabel('Minutes a day').fill('20');
      await dialog.getByRole('button', { name: 'Save goal' }).click();
      await expect(toast(page, 'Goal saved')).toBeVisible();
      await expect(dialog).toBeHidden();
      await expect(progress).toHaveAttribute('aria-valuetext', '25 of 20 min, goal met');
      await expectAccessible(page, 'dashboard with the activity on the dog card');

      // From My Pets, as an owner looks at their dog's activity.
      await page.goto('/my-pets');
      await page.getByRole('link', { name: 'View Activity' }).click();
      await expect(page).toHaveURL(new RegExp(`/pets/${petId}/health$`));
      await expect(page.getByRole('heading', { level: 1, name: "Biscuit's health" })).toBeVisible();
      const range = page.getByRole('group', { name: 'Range' });
      await expect(range.getByRole('button', { name: '7 days' })).toHaveAttribute(
        'aria-pressed',
        'true',
      );
      await expect(
        page.getByTestId('chart-activity').locator('.recharts-bar-rectangle').first(),
      ).toBeVisible();
      await expect(page.getByText('1 walk, newest first.')).toBeVisible();
      await expect(page.getByText(/Streak:/)).toBeVisible();

      // By keyboard: the next range is a Tab away.
      await range.getByRole('button', { name: '7 days' }).focus();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\?days=30$/);
      await expect(page.getByText(/over the last 30 days/)).toBeVisible();
      await range.getByRole('button', { name: '90 days' }).click();
      await expect(page).toHaveURL(/\?days=90$/);
      await expect(page.getByText(/over the last 90 days/)).toBeVisible();
      for (const chart of ['activity', 'rest', 'heart-rate', 'heat-levels'])
        await expect(page.getByTestId(`chart-${chart}`)).toBeVisible();
      await expectAccessible(page, 'the health dashboard over 90 days');

      // Back to the suggestion, from the dashboard.
      await page.getByRole('button', { name: 'Edit goal' }).click();
      await page.getByRole('button', { name: 'Use the suggestion' }).click();
      await expect(toast(page, 'Goal saved')).toBeVisible();
      await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuetext', '25 of 60 min');
    });

    test("the home card's progress moves as the readings of a walk arrive", async ({
      page,
      request,
    }) => {
      test.setTimeout(300_000);
      const { owner, petId, collar } = await beagleAfterAWalk(request);
      await signInWithToken(page, owner.token, '/');
      const progress = dogCard(page).getByRole('progressbar', { name: "Biscuit's activity today" });
      await expect(progress).toHaveAttribute('aria-valuetext', '25 of 60 min');

      // A second walk, its readings arriving as the dog walks: the card follows without a reload.
      // (Its minutes share the calm readings' minutes: an average of 35 is still active.)
      await postMore(request, collar);
      await expect
        .poll(() => activeToday(request, owner, petId), { timeout: 150_000, intervals: [5_000] })
        .toBe(40);
      await expect(progress).toHaveAttribute('aria-valuetext', '40 of 60 min', { timeout: 90_000 });
    });
  });
}

/** 15 more minutes of walking, ending a minute ago, posted a few minutes at a time. */
async function postMore(request: APIRequestContext, collar: Collar) {
  const walk = aWalk(15, 1);
  for (let i = 0; i < walk.length; i += 5)
    await postReadings(request, collar, walk.slice(i, i + 5));
}
