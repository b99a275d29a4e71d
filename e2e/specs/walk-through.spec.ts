import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { addPet, loginAsAdmin, registerUser } from '../support/api';
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
      await expect(
        page.getByRole('alert').filter({ hasText: 'could not be loaded' }),
      ).toBeVisible();
      await expect(page.getByText('All systems operational')).toHaveCount(0);
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
      await expect(
        page.getByText('The MAC address must look like AA:BB:CC:DD:EE:FF.'),
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
      const box = (await front.boundingBox())!;
      if (viewport === PHONE) expect(box.y).toBeGreaterThan(viewport.height / 2);
      else expect(box.y).toBeLessThan(200);
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

    test("9: headings go in order on an owner's screens", async ({ page, request }) => {
      // One axe run per screen: slow on a busy machine, not a sign of a slow app.
      test.slow();
      const owner = await registerUser(request);
      await signInWithToken(page, owner.token, '/devices');
      for (const path of ['/devices', '/support', '/emergency', '/safety']) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        expect(await headingOrderFindings(page), path).toEqual([]);
      }
    });

    test('9: headings go in order on the public and admin screens', async ({ page, request }) => {
      test.slow();
      for (const path of ['/', '/emergency']) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        expect(await headingOrderFindings(page), path).toEqual([]);
      }
      const admin = await loginAsAdmin(request);
      for (const path of ['/', '/admin', '/admin/devices']) {
        await signInWithToken(page, admin.token, path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        expect(await headingOrderFindings(page), path).toEqual([]);
      }
    });
  });
}
