import { expect, test } from '../support/fixtures';
import { expectAccessible } from '../support/axe';
import { registerUser, type Account } from '../support/api';
import { openLoginScreen, signInWithToken } from '../support/app';

/** axe-core on every public and guidance screen: no serious or critical violations. */
for (const viewport of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 812 },
]) {
  test.describe(`accessibility at ${viewport.name} width`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('the landing page and its waitlist dialog', async ({ page }) => {
      await page.goto('/');
      // Prerendered: interactive once the app has taken the page over.
      await page.waitForLoadState('networkidle');
      await expect(page.getByRole('button', { name: 'Join Waitlist' }).first()).toBeVisible();
      await expectAccessible(page, 'the landing page');

      await page.getByRole('button', { name: 'Join Waitlist' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Join the Waitlist' });
      await dialog.getByRole('button', { name: 'Join Waitlist' }).click();
      await expect(dialog.getByText('Please enter your name.')).toBeVisible();
      await expectAccessible(page, 'the waitlist dialog with its messages');
    });

    test('the login screen', async ({ page }) => {
      await openLoginScreen(page);
      await expectAccessible(page, 'the login screen');
    });

    test('the emergency vet finder with results', async ({ page }) => {
      await page.goto('/emergency');
      // Prerendered: interactive once the app has taken the page over.
      await page.waitForLoadState('networkidle');
      await page.getByLabel('ZIP code').fill('12345');
      await page.getByLabel('ZIP code').press('Enter');
      await expect(page.getByRole('heading', { name: 'Emergency Vets Near 12345' })).toBeVisible();
      await expectAccessible(page, '/emergency');
    });

    test('the 404 page', async ({ page }) => {
      await page.goto('/no-such-page-for-axe');
      await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
      await expectAccessible(page, 'the 404 page');
    });

    test.describe('signed in', () => {
      let owner: Account;
      test.beforeEach(async ({ request }) => {
        owner = await registerUser(request);
      });

      test('the safety guide, every tab', async ({ page }) => {
        await signInWithToken(page, owner.token, '/safety');
        await expect(page.getByRole('heading', { name: 'Pet Safety Guide' })).toBeVisible();
        await expectAccessible(page, 'General Tips');
        await page.getByRole('tab', { name: 'Emergency' }).click();
        await expect(page.getByRole('tabpanel', { name: 'Emergency' })).toBeVisible();
        await expectAccessible(page, 'the Emergency tab');
        await page.getByRole('tab', { name: 'Weather Guide' }).click();
        await page.getByRole('button', { name: 'Check Current Weather Safety Level' }).click();
        await expect(
          page.getByText('Monitor closely and provide extra water breaks'),
        ).toBeVisible();
        // Judge the toast's contrast once it has faded in, not halfway through.
        await expect(page.locator('[data-sonner-toast]').first()).toHaveCSS('opacity', '1');
        await expectAccessible(page, 'the Weather Guide tab with a result');
      });

      test('the support page with an FAQ answer open', async ({ page }) => {
        await signInWithToken(page, owner.token, '/support');
        await expect(page.getByRole('heading', { name: 'Support', exact: true })).toBeVisible();
        await page.getByRole('button', { name: 'How long does the battery last?' }).click();
        await expect(page.getByText(/up to 7 days/)).toBeVisible();
        await expectAccessible(page, '/support');
      });

      test('the emergency vet finder under the signed-in header', async ({ page }) => {
        await signInWithToken(page, owner.token, '/emergency');
        await expect(
          page.getByRole('heading', { name: 'Emergency Vets', exact: true }),
        ).toBeVisible();
        await expectAccessible(page, '/emergency signed in');
      });
    });
  });
}
