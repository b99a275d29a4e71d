import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import {
  addCollar,
  addPet,
  loginAsAdmin,
  postReadings,
  registerUser,
  uniqueEmail,
  type Account,
} from '../support/api';
import { signInWithToken, toast } from '../support/app';

/** The fixes a walk through every screen at 375 px and 1280 px asked for. */
const PHONE = { width: 375, height: 812 };
const LAPTOP = { width: 1280, height: 800 };

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/** axe's heading-order rule (a moderate finding, so the serious-only sweep skips it). */
async function headingOrderFindings(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            d: Document,
            o: object,
          ) => Promise<{ violations: { nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'rule', values: ['heading-order'] },
    });
    return result.violations.flatMap((v) => v.nodes.map((n) => n.target.join(' ')));
  });
}

const noSidewaysScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()!.width,
  );

test('3: the signed-in header shows a typical welcome whole and never wraps, at 1024, 1280 and 1440 px', async ({
  page,
  request,
}) => {
  test.slow();
  const people = await Promise.all(
    ['Demo Owner', 'Administrator', 'Bartholomew Montgomery-Wellington III'].map((name) =>
      registerUser(request, { name }),
    ),
  );
  const [demo, administrator, longName] = people as [Account, Account, Account];
  const bar = page.getByRole('banner').locator('> div').first();
  const isCut = (welcome: ReturnType<typeof page.getByText>) =>
    welcome.evaluate((el) => el.scrollWidth > el.clientWidth);
  for (const width of [1024, 1280, 1440]) {
    await page.setViewportSize({ width, height: 800 });
    for (const person of [demo, administrator, longName]) {
      await signInWithToken(page, person.token, '/');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      // The badge arrives with its own request: the bar is judged with it in place.
      await expect(page.getByRole('banner').getByText('Enabled').first()).toBeAttached();
      expect((await bar.boundingBox())!.height, `${person.name} at ${width}`).toBeLessThanOrEqual(
        64,
      );
      await noSidewaysScroll(page);
      if (width < 1280) {
        // Below the breakpoint the welcome lives in the menu, whole.
        await page.getByRole('button', { name: 'Open menu' }).click();
        const welcome = page
          .getByRole('banner')
          .getByText(`Welcome, ${person.name}`)
          .filter({ visible: true });
        await expect(welcome).toBeVisible();
        expect(await isCut(welcome), `${person.name} at ${width}`).toBe(false);
        continue;
      }
      const welcome = page
        .getByRole('banner')
        .getByText(/^Welcome, /)
        .filter({ visible: true });
      await expect(welcome).toHaveAttribute('title', `Welcome, ${person.name}`);
      // A typical name reads whole; a long one may be cut, its tooltip holding all of it.
      if (person !== longName)
        expect(await isCut(welcome), `${person.name} at ${width}`).toBe(false);
      // Nothing in the bar overlaps: the welcome ends before the badges begin.
      const badge = page
        .getByRole('banner')
        .getByText('User', { exact: true })
        .filter({ visible: true });
      const [w, b] = [(await welcome.boundingBox())!, (await badge.boundingBox())!];
      expect(w.x + w.width).toBeLessThanOrEqual(b.x);
    }
  }
});

/** A pet wearing a collar that just read 42 °C: a critical heat alert and a raised heat risk. */
async function ownerCollarInHeat(
  request: Parameters<typeof registerUser>[0],
  owner: Account,
  petName: string,
) {
  const petId = await addPet(request, owner, petName);
  const collar = await addCollar(request, owner, petId, `${petName} collar`);
  await postReadings(request, collar, [{ temperature: 42, humidity: 60, battery: 80 }]);
  return collar;
}

for (const viewport of [PHONE, LAPTOP]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('1 and 8: the admin sees every user with their actions, and a failed list is said plainly', async ({
      page,
      request,
    }) => {
      const someone = await registerUser(request, { name: 'Maximiliana Featherstonehaugh-Smythe' });
      const admin = await loginAsAdmin(request);
      await signInWithToken(page, admin.token, '/');
      await page.getByLabel('Search users').fill(someone.email);
      const details = page.getByRole('button', { name: `View details for ${someone.name}` });
      const role = page.getByRole('button', { name: `Change role for ${someone.name}` });
      for (const action of [details, role]) {
        await expect(action).toBeVisible();
        const box = (await action.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      }
      await expect(page.getByText(someone.email)).toBeVisible();
      await noSidewaysScroll(page);

      // On a phone each user is a card with a border all round, the last one too; on a laptop
      // the table's last row has no divider under it.
      await page.getByLabel('Search users').fill('');
      const lastRow = page.getByRole('region', { name: 'Users' }).locator('tbody tr').last();
      await expect(lastRow).toBeVisible();
      const borders = await lastRow.evaluate((row) => {
        const style = getComputedStyle(row);
        return [style.borderTopWidth, style.borderBottomWidth];
      });
      expect(borders).toEqual(viewport === PHONE ? ['1px', '1px'] : ['0px', '0px']);

      // Stat cards: two by two on a phone, four in a row on a laptop.
      const cards = page.getByRole('list', { name: 'Platform statistics' }).getByRole('listitem');
      const [a, b, c] = await Promise.all([0, 1, 2].map(async (i) => cards.nth(i).boundingBox()));
      expect(a!.y).toBe(b!.y);
      if (viewport === PHONE) expect(c!.y).toBeGreaterThan(a!.y);
      else expect(c!.y).toBe(a!.y);

      // The user list fails: the page does not look healthy everywhere else.
      await page.route('**/api/auth/users', (route) =>
        route.fulfill({ status: 500, json: { error: 'Internal Server Error' } }),
      );
      await page.reload();
      // While the failed list is retried, health is being checked, not claimed.
      const health = page
        .getByRole('list', { name: 'Platform statistics' })
        .getByRole('listitem')
        .filter({ hasText: 'Platform Health' });
      await expect(health).toContainText('Checking…');
      await expect(page.getByText('All systems operational')).toHaveCount(0);
      await expect(
        page.getByRole('alert').filter({ hasText: 'could not be loaded' }),
      ).toBeVisible();
      await expect(health).toContainText('Service up; some data failed to load');
      await expect(page.getByText('All systems operational')).toHaveCount(0);
    });

    test('1: the waitlist shows each entry whole, without a sideways scroller', async ({
      page,
      request,
    }) => {
      const entry = {
        name: 'Philippa Worthington-Featherstone',
        email: uniqueEmail('walk-waitlist'),
        phone: '+1 (555) 010-2020',
        petName: 'Pepper',
        petBreed: 'Beagle',
      };
      const joined = await request.post('/api/waitlist', { data: entry });
      expect(joined.status(), await joined.text()).toBe(201);
      const admin = await loginAsAdmin(request);
      await signInWithToken(page, admin.token, '/');
      const row = page
        .getByRole('region', { name: 'Waitlist' })
        .getByRole('row')
        .filter({ hasText: entry.email });
      await row.scrollIntoViewIfNeeded();
      for (const text of [entry.email, entry.phone, entry.petName, entry.petBreed]) {
        const box = (await row.getByText(text, { exact: true }).boundingBox())!;
        expect(box.x, text).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, text).toBeLessThanOrEqual(viewport.width);
      }
      // On a phone the entry is a card whose fields say what they are.
      const email = row.getByRole('cell').filter({ hasText: entry.email });
      const label = await email.evaluate((cell) => getComputedStyle(cell, '::before').content);
      expect(label).toBe(viewport === PHONE ? '"Email"' : 'none');
      await noSidewaysScroll(page);
    });

    test("the owner's home: a card per dog with its state, temperature, humidity, battery and age, live", async ({
      page,
      request,
    }) => {
      const owner = await registerUser(request);
      const biscuit = await addPet(request, owner, 'Biscuit');
      await addPet(request, owner, 'Luna');
      const collar = await addCollar(request, owner, biscuit, 'Biscuit collar');
      // 25 °C is under the default warning threshold (85 °F).
      await postReadings(request, collar, [{ temperature: 25, humidity: 48, battery: 76 }]);

      await signInWithToken(page, owner.token, '/');
      const dogs = page.getByRole('region', { name: 'Your dogs now' });
      const card = (name: string) => dogs.getByRole('article', { name, exact: true });
      const biscuitCard = card('Biscuit');
      await expect(biscuitCard.getByText('Safe', { exact: true })).toBeVisible();
      await expect(biscuitCard.getByText('25.0°C / 77.0°F', { exact: true })).toBeVisible();
      await expect(biscuitCard.getByText('48.0%')).toBeVisible();
      await expect(biscuitCard.getByRole('meter', { name: 'Battery' })).toHaveAttribute(
        'aria-valuenow',
        '76',
      );
      await expect(biscuitCard.getByText(/^Updated (just now|\d+s ago)$/)).toBeVisible();
      await expect(card('Luna').getByText('No collar', { exact: true })).toBeVisible();

      // The first thing on a phone: the cards come before the dashboard's links, stacked on a
      // phone and side by side on a laptop, and nothing scrolls sideways.
      const first = (await card('Biscuit').boundingBox())!;
      const second = (await card('Luna').boundingBox())!;
      if (viewport === PHONE) expect(second.y).toBeGreaterThan(first.y + first.height - 1);
      else expect(second.y).toBe(first.y);
      expect(first.y).toBeLessThan(viewport.height);
      await noSidewaysScroll(page);

      // The dog walks into the sun: the card follows without a reload.
      await page.evaluate(() => Object.assign(window, { stillHere: true }));
      await postReadings(request, collar, [{ temperature: 31, humidity: 60, battery: 75 }]);
      await expect(biscuitCard.getByText('Warning', { exact: true })).toBeVisible();
      await expect(biscuitCard.getByText('31.0°C / 87.8°F', { exact: true })).toBeVisible();
      await expect(biscuitCard.getByText('60.0%')).toBeVisible();
      expect(await page.evaluate(() => 'stillHere' in window)).toBe(true);
    });

    test('2: on the emergency page the real helpline comes first and sample clinics look inert', async ({
      page,
    }) => {
      await page.goto('/emergency');
      // Prerendered: interactive once the app has taken the page over.
      await page.waitForLoadState('networkidle');
      await page.getByLabel('ZIP code').fill('90210');
      await page.getByRole('button', { name: 'Search' }).click();
      const helpline = page.getByRole('heading', { name: 'Pet Poison Helpline' });
      const clinics = page.getByRole('list', { name: 'Clinics' });
      await expect(clinics).toBeVisible();
      const call = clinics.getByRole('button', { name: /^Call / }).first();
      await expect(call).toBeDisabled();
      await expect(clinics.getByRole('button', { name: /^Get directions/ }).first()).toBeDisabled();
      await expect(
        clinics.getByText('Sample clinic: calling and directions are not available.').first(),
      ).toBeVisible();
      const helplineBox = (await helpline.boundingBox())!;
      const clinicsBox = (await clinics.boundingBox())!;
      if (viewport === PHONE) expect(helplineBox.y).toBeLessThan(clinicsBox.y);
      else expect(helplineBox.x).toBeGreaterThan(clinicsBox.x + clinicsBox.width - 1);
      // Keyboard order matches: from the search button, the helpline's call link comes next.
      await page.getByRole('button', { name: 'Search' }).focus();
      await page.keyboard.press('Tab');
      await expect(page.getByRole('link', { name: 'Call (888) 426-4435' })).toBeFocused();
      await noSidewaysScroll(page);
    });

    test('2: the support page leads with the poison helpline and uses the configured contacts', async ({
      page,
      request,
    }) => {
      const owner = await registerUser(request);
      await signInWithToken(page, owner.token, '/support');
      const helpline = page.getByRole('link', { name: /^Call ASPCA Animal Poison Control/ });
      await expect(helpline).toHaveAttribute('href', 'tel:+18884264435');
      await expect(page.getByRole('link', { name: 'Find an emergency vet' })).toHaveAttribute(
        'href',
        '/emergency',
      );
      // The e2e server runs on the documented defaults of SUPPORT_EMAIL and SUPPORT_PHONE.
      await expect(page.getByRole('link', { name: 'Send Email' })).toHaveAttribute(
        'href',
        'mailto:support@pawguard.example',
      );
      await expect(page.getByRole('link', { name: /^Call Emergency Line/ })).toHaveAttribute(
        'href',
        'tel:+18005550142',
      );
      const first = (await helpline.boundingBox())!;
      const line = (await page.getByRole('link', { name: /^Call Emergency Line/ }).boundingBox())!;
      expect(first.y).toBeLessThan(line.y);
    });

    test('3: the signed-in header never wraps, even with a long name', async ({
      page,
      request,
    }) => {
      const owner = await registerUser(request, { name: 'Bartholomew Montgomery-Wellington III' });
      await signInWithToken(page, owner.token, '/');
      const bar = page.getByRole('banner').locator('> div').first();
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect((await bar.boundingBox())!.height).toBeLessThanOrEqual(64);
      if (viewport === LAPTOP) {
        await expect(page.getByRole('navigation', { name: 'Main' }).first()).toBeVisible();
        await expect(
          page
            .getByRole('banner')
            .getByText(/^Welcome, /)
            .first(),
        ).toHaveAttribute('title', `Welcome, ${owner.name}`);
      } else {
        await page.getByRole('button', { name: 'Open menu' }).click();
        await expect(
          page.getByRole('banner').getByText(`Welcome, ${owner.name}`).filter({ visible: true }),
        ).toBeVisible();
      }
      await noSidewaysScroll(page);
    });

    test('4: a threshold outside 70–120 °F is said under its field, as well as in the toast', async ({
      page,
      request,
    }) => {
      const owner = await registerUser(request);
      await signInWithToken(page, owner.token, '/notifications');
      const warning = page.getByLabel('Warning temperature (°F)');
      await warning.fill('130');
      await page.getByRole('button', { name: 'Save Settings' }).click();
      // The words first, then the °C the field's value stands for.
      await expect(warning).toHaveAccessibleDescription(
        'The warning temperature must be between 70 and 120 °F. = 54.4°C',
      );
      await expect(warning).toBeFocused();
      await expect(toast(page, 'Error')).toContainText('Failed to save notification preferences');
      await noSidewaysScroll(page);
    });

    test('4: forms say under the field what the server would refuse', async ({ page, request }) => {
      const owner = await registerUser(request);
      await signInWithToken(page, owner.token, '/my-pets');
      await page
        .getByRole('button', { name: /Add (Your First )?Pet/ })
        .first()
        .click();
      const sheet = page.getByRole('dialog');
      await sheet.getByLabel('Name *').fill('Biscuit');
      await sheet.getByLabel('Age (years)').fill('2.7');
      await sheet.getByLabel('Weight (lbs)').fill('900');
      await sheet.getByRole('button', { name: 'Add Pet' }).click();
      await expect(sheet.getByText('Age must be a whole number of years.')).toBeVisible();
      await expect(sheet.getByText('Weight must be between 0.1 and 400 lbs.')).toBeVisible();
      await expect(sheet.getByLabel('Age (years)')).toHaveAttribute('aria-invalid', 'true');
      await expect(sheet).toBeVisible(); // nothing was saved

      const admin = await loginAsAdmin(request);
      await signInWithToken(page, admin.token, '/admin');
      await page.getByLabel('Device ID *').fill('PET-ZZ99');
      await page.getByLabel('MAC Address *').fill('not-a-mac');
      await page.getByRole('button', { name: 'Pre-populate Device' }).click();
      // Under the field, and in the toast that says the device was not pre-populated.
      await expect(
        page
          .getByRole('form', { name: 'Pre-populate Device' })
          .getByText('The MAC address must look like AA:BB:CC:DD:EE:FF.'),
      ).toBeVisible();
      await expect(
        toast(page, 'Failed to pre-populate device').getByText(
          'The MAC address must look like AA:BB:CC:DD:EE:FF.',
        ),
      ).toBeVisible();
    });

    test('4 and 9: sign-up checks the password length; Back closes the login screen', async ({
      page,
    }) => {
      await page.goto('/emergency');
      // Prerendered: interactive once the app has taken the page over.
      await page.waitForLoadState('networkidle');
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
      await page.getByRole('button', { name: 'Create Account' }).click();
      await page.getByLabel('Full Name').fill('Short Password');
      await page.getByLabel('Email').fill('short@example.com');
      await page.getByLabel('Password').fill('abc');
      await page
        .getByRole('form', { name: 'Create Account' })
        .getByRole('button', { name: 'Create Account' })
        .click();
      await expect(page.getByText('Password must be at least 8 characters.')).toBeVisible();

      await page.goBack();
      await expect(page).toHaveURL(/\/emergency$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Emergency Vets' })).toBeVisible();
    });

    test('5: toasts stay clear of the header, at most three at a time', async ({ page }) => {
      await page.goto('/');
      // Prerendered: interactive once the app has taken the page over.
      await page.waitForLoadState('networkidle');
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      const signIn = page.getByRole('button', { name: 'Sign In' });
      // Four submits at once: toasts leave after a few seconds, and on a busy machine four
      // clicks one by one can take longer than that.
      await expect(signIn).toBeEnabled();
      await signIn.evaluate((button: HTMLButtonElement) => {
        for (let i = 0; i < 4; i++) button.click();
      });
      const toasts = page.getByRole('region', { name: /^Notifications/ }).getByRole('listitem');
      await expect(toasts.first()).toBeVisible();
      await expect(page.locator('[data-sonner-toast][data-visible="true"]')).toHaveCount(3);
      const front = page.locator('[data-sonner-toast][data-front="true"]');
      const bar = (await page.getByRole('banner').boundingBox())!;
      // Never over the header (its bell, badges and Logout): at the bottom on a laptop; on a
      // phone at the top, just below the header, clear of the results at the bottom. Judged
      // once it has slid in.
      await expect
        .poll(async () => (await front.boundingBox())!.y)
        .toBeGreaterThan(bar.y + bar.height);
      const box = (await front.boundingBox())!;
      if (viewport === LAPTOP) expect(box.y).toBeGreaterThan(viewport.height / 2);
      else expect(box.y).toBeLessThan(viewport.height / 2);
      if (viewport === LAPTOP) expect(box.x).toBeGreaterThan(viewport.width / 2);
      await expect(toast(page, 'Error').first()).toBeVisible();
    });

    test('6: picking a pet shows its card, its headings in order', async ({ page, request }) => {
      const owner = await registerUser(request);
      await addPet(request, owner, 'Alpha');
      await addPet(request, owner, 'Bravo');
      await signInWithToken(page, owner.token, '/my-pets');
      const detail = page.locator('#pet-detail-title');
      await expect(detail).toHaveText('Alpha');
      await page.getByRole('button', { name: 'Bravo — show details' }).click();
      await expect(detail).toHaveText('Bravo');
      await expect(detail).toBeInViewport();
      await expect(page.getByRole('button', { name: 'Bravo — show details' })).toHaveAttribute(
        'aria-pressed',
        'true',
      );
      expect(await headingOrderFindings(page)).toEqual([]);
    });

    test('6: picking a pet whose card is taller than the screen shows its name below the header', async ({
      page,
      request,
    }) => {
      const owner = await registerUser(request);
      await addPet(request, owner, 'Alpha');
      await ownerCollarInHeat(request, owner, 'Bravo');
      await signInWithToken(page, owner.token, '/my-pets');
      const detail = page.locator('#pet-detail-title');
      await expect(detail).toHaveText('Alpha');
      const bravo = page.getByRole('button', { name: 'Bravo — show details' });
      await expect(page.getByRole('list').locator('[data-level="CRITICAL"]')).toHaveText(
        'Level: Critical',
      );
      await bravo.scrollIntoViewIfNeeded();
      await bravo.click();
      await expect(detail).toHaveText('Bravo');
      await expect(page.getByText('What to do and why').first()).toBeVisible();
      const bar = (await page.getByRole('banner').boundingBox())!;
      // Scrolling is smooth: judge where it comes to rest.
      await expect
        .poll(async () => (await detail.boundingBox())!.y, { timeout: 5_000 })
        .toBeGreaterThanOrEqual(bar.y + bar.height);
      const title = (await detail.boundingBox())!;
      expect(title.y + title.height).toBeLessThanOrEqual(viewport.height);
    });

    test("9: headings go in order on an owner's screens, with a collar, an alert and heat risk", async ({
      page,
      request,
    }) => {
      // One axe run per screen: slow on a busy machine, not a sign of a slow app.
      test.slow();
      const owner = await registerUser(request);
      const collar = await ownerCollarInHeat(request, owner, 'Biscuit');
      await signInWithToken(page, owner.token, '/devices');
      await expect(page.getByRole('heading', { level: 2, name: collar.name })).toBeVisible();
      for (const path of [
        '/devices',
        '/',
        '/my-pets',
        '/monitoring',
        '/notifications',
        '/support',
        '/emergency',
        '/safety',
      ]) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        // Judge the screen with its data, not its loading skeleton.
        if (['/', '/my-pets', '/monitoring'].includes(path))
          await expect(page.getByText('Critical heat alert').first()).toBeVisible();
        if (path === '/notifications')
          await expect(page.getByRole('heading', { name: 'Temperature Alerts' })).toBeVisible();
        expect(await headingOrderFindings(page), path).toEqual([]);
      }
    });

    test('9: headings go in order on the public and admin screens', async ({ page, request }) => {
      test.slow();
      // At least one collar on the platform, so the admin's screens show device cards.
      const collar = await ownerCollarInHeat(request, await registerUser(request), 'Rex');
      for (const path of ['/', '/emergency']) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        expect(await headingOrderFindings(page), path).toEqual([]);
      }
      const admin = await loginAsAdmin(request);
      for (const path of ['/', '/admin', '/admin/devices']) {
        await signInWithToken(page, admin.token, path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        if (path === '/admin')
          await expect(page.getByRole('list', { name: 'Existing devices' })).toBeVisible();
        if (path === '/admin/devices') {
          await page.getByLabel('Search devices').fill(collar.deviceId);
          await expect(
            page.getByRole('heading', { level: 2, name: collar.deviceId }),
          ).toBeVisible();
        }
        expect(await headingOrderFindings(page), path).toEqual([]);
      }
    });
  });
}
