import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { expectAccessible } from '../support/axe';
import {
  addCollar,
  addPet,
  postReadings,
  registerUser,
  TEST_PASSWORD,
  uniqueEmail,
  type Collar,
} from '../support/api';
import { signInWithToken, toast } from '../support/app';
import { mailsTo } from '../support/mail';

/** A mail's text as a mail client shows it (quoted-printable undone). */
const bodyOf = (raw: string) =>
  Buffer.from(
    raw
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  ).toString('utf8');

/** The invitation link's token, from the mail the invited address received. */
async function invitationToken(email: string): Promise<string> {
  let token: string | undefined;
  await expect
    .poll(() => {
      const mail = mailsTo(email).find((m) => m.subject.includes("'s pack on PawGuard"));
      token = mail ? /\/pack\/join#([A-Za-z0-9_-]+)/.exec(bodyOf(mail.raw))?.[1] : undefined;
      return token;
    })
    .toBeTruthy();
  return token!;
}

/** A collar's card on Monitoring, found by its Device ID. */
const monitoringCard = (page: Page, collar: Collar) =>
  page
    .getByRole('list', { name: 'Monitored devices' })
    .getByRole('listitem')
    .filter({ hasText: collar.deviceId });

test('an owner invites a caregiver, who signs up from the link and sees the dog live; once removed, the dog is gone for them', async ({
  page,
  request,
  openBrowser,
}) => {
  const owner = await registerUser(request);
  const petId = await addPet(request, owner, 'Biscuit');
  const collar = await addCollar(request, owner, petId, 'Biscuit collar');
  await postReadings(request, collar, [{ temperature: 24, humidity: 45 }]);
  const sitterEmail = uniqueEmail('sitter');

  // The owner invites the sitter as caregiver from Biscuit's card on My Pets.
  await signInWithToken(page, owner.token, '/my-pets');
  await page.getByRole('button', { name: 'Pack of Biscuit' }).click();
  const sheet = page.getByRole('dialog', { name: "Biscuit's pack" });
  await expect(sheet.getByText(/^Only you so far/)).toBeVisible();
  const form = sheet.getByRole('form', { name: 'Invite someone' });
  await form.getByLabel('Email').fill(sitterEmail);
  await form.getByRole('radio', { name: 'Caregiver' }).check();
  await form.getByRole('button', { name: 'Send Invitation' }).click();
  await expect(toast(page, 'Invitation sent')).toBeVisible();
  await expect(
    sheet.getByRole('region', { name: 'Invitations waiting for an answer' }),
  ).toContainText(sitterEmail);
  await expectAccessible(page, 'the pack sheet with an open invitation');

  // The sitter opens the mailed link on their phone, signed out.
  const token = await invitationToken(sitterEmail);
  const sitter = await openBrowser();
  await sitter.setViewportSize({ width: 375, height: 812 });
  await sitter.goto(`/pack/join#${token}`);
  await expect(
    sitter.getByRole('heading', {
      name: `${owner.name} invites you to Biscuit's pack as caregiver`,
    }),
  ).toBeVisible();
  await expect(sitter.getByText('A caregiver changes nothing else about Biscuit.')).toBeVisible();
  // The token left the address bar.
  await expect(sitter).toHaveURL(/\/pack\/join$/);
  await expectAccessible(sitter, 'the invitation page, signed out, at 375 px');

  // They create their account from the page, with the invited address, and come back to it.
  await sitter.getByRole('button', { name: 'Create an account' }).click();
  const signUp = sitter.getByRole('form', { name: 'Create Account' });
  await expect(signUp.getByLabel('Email')).toHaveValue(sitterEmail);
  await signUp.getByLabel('Full Name').fill('Sam Sitter');
  await signUp.getByLabel('Password').fill(TEST_PASSWORD);
  await signUp.getByRole('button', { name: 'Create Account' }).click();
  const accept = sitter.getByRole('button', { name: 'Accept Invitation' });
  await expect(accept).toBeVisible();
  await expectAccessible(sitter, 'the invitation page, signed in, at 375 px');
  await accept.click();
  await expect(toast(sitter, "You joined Biscuit's pack")).toBeVisible();
  await expect(sitter).toHaveURL(/\/my-pets$/);
  const pets = sitter.getByRole('region', { name: /All Pets/ });
  await expect(pets.getByText(`Shared by ${owner.name} · Caregiver`)).toBeVisible();
  await expect(pets.getByRole('button', { name: 'Edit Biscuit' })).toHaveCount(0);
  await expect(pets.getByRole('button', { name: 'Delete Biscuit' })).toHaveCount(0);

  // Biscuit live on the sitter's Monitoring: a new reading shows without a reload.
  await sitter.goto('/monitoring');
  const card = monitoringCard(sitter, collar);
  await expect(card.getByText(`Shared by ${owner.name} · Caregiver`)).toBeVisible();
  await expect(card.getByText(/24\.0°C/)).toBeVisible();
  await expect(sitter.getByText('Live', { exact: true })).toBeVisible();
  await postReadings(request, collar, [{ temperature: 27.5, humidity: 50 }]);
  await expect(card.getByText(/27\.5°C/)).toBeVisible();
  await expect(card.getByText('Connected')).toBeVisible();

  // The owner sees the sitter in Biscuit's pack, and removes them.
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();
  await page.getByRole('button', { name: 'Pack of Biscuit' }).click();
  const people = sheet.getByRole('list', { name: "People in Biscuit's pack" });
  await expect(people).toContainText('Sam Sitter');
  await expect(people).toContainText('Caregiver');
  await expect(
    sheet.getByRole('region', { name: 'Invitations waiting for an answer' }),
  ).toHaveCount(0);
  await sheet.getByRole('button', { name: "Remove Sam Sitter from Biscuit's pack" }).click();
  await page
    .getByRole('alertdialog', { name: "Remove Sam Sitter from Biscuit's pack?" })
    .getByRole('button', { name: 'Remove' })
    .click();
  await expect(toast(page, "Sam Sitter removed from Biscuit's pack")).toBeVisible();
  await expect(sheet.getByText(/^Only you so far/)).toBeVisible();

  // For the sitter, Biscuit is gone once the page loads again.
  await sitter.reload();
  await expect(sitter.getByRole('heading', { name: 'No Devices Found' })).toBeVisible();
  await sitter.goto('/my-pets');
  await expect(sitter.getByRole('heading', { name: 'No pets yet' })).toBeVisible();
});
