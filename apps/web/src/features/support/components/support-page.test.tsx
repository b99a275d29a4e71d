import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { POISON_HELPLINE, SUPPORT_CONTACT, SUPPORT_FAQ } from '@pawguard/shared/content';
import { jsonResponse, stubFetch } from '@/testing/fixtures';
import { renderWithProviders } from '@/testing/render';
import { SupportPage } from './support-page';

const CONFIG = {
  support_email: 'help@example.org',
  support_phone: '+44 20 7946 0000',
  support_phone_tel: '+442079460000',
  mqtt_port: null,
};

function setup() {
  stubFetch({ 'GET /api/config': () => jsonResponse(200, CONFIG) });
  renderWithProviders(<SupportPage />, { route: '/support' });
  return userEvent.setup();
}

// Role queries over this long page are slow in jsdom; under a full parallel run the default
// 5 s was not always enough.
describe('SupportPage', { timeout: 20_000 }, () => {
  it("offers the server's support e-mail and phone as real links, and the 24/7 emergency line", async () => {
    setup();
    expect(await screen.findByRole('link', { name: 'Send Email' })).toHaveAttribute(
      'href',
      `mailto:${CONFIG.support_email}`,
    );
    expect(screen.getByText(CONFIG.support_email)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Call Support' })).toHaveAttribute(
      'href',
      `tel:${CONFIG.support_phone_tel}`,
    );
    expect(screen.getByRole('link', { name: /^Call Emergency Line/ })).toHaveAttribute(
      'href',
      `tel:${CONFIG.support_phone_tel}`,
    );
    expect(screen.getByText('Response within 2 hours')).toBeInTheDocument();
    expect(SUPPORT_CONTACT.phoneHours).toBe('Mon-Fri 8AM-8PM EST');
    expect(screen.getByText('Mon-Fri 8AM-8PM EST')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start Chat' })).toBeDisabled();
  });

  it('falls back to the documented sample contacts, dialled as the server would write them, when the settings do not load', async () => {
    stubFetch({ 'GET /api/config': () => jsonResponse(500, { error: 'Internal Server Error' }) });
    renderWithProviders(<SupportPage />, { route: '/support' });
    expect(
      await screen.findByRole('link', { name: 'Call Support' }, { timeout: 10_000 }),
    ).toHaveAttribute('href', 'tel:+18005550142');
    expect(screen.getByText(SUPPORT_CONTACT.phone)).toBeInTheDocument();
  });

  it('leads the emergency banner with the real poison helpline and the vet finder', async () => {
    setup();
    const helpline = screen.getByRole('link', {
      name: `Call ${POISON_HELPLINE.name} ${POISON_HELPLINE.phone}`,
    });
    expect(helpline).toHaveAttribute('href', `tel:${POISON_HELPLINE.tel}`);
    expect(screen.getByRole('link', { name: 'Find an emergency vet' })).toHaveAttribute(
      'href',
      '/emergency',
    );
    // PawGuard's own line comes after both.
    const line = await screen.findByRole('link', { name: /^Call Emergency Line/ });
    expect(helpline.compareDocumentPosition(line) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('answers each FAQ in an accordion, one at a time', async () => {
    const user = setup();
    const [first, second] = SUPPORT_FAQ;
    const firstButton = screen.getByRole('button', { name: first!.question });
    expect(firstButton).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByText(first!.answer)).not.toBeInTheDocument();

    await user.click(firstButton);
    expect(firstButton).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText(first!.answer)).toBeVisible();

    await user.click(screen.getByRole('button', { name: second!.question }));
    expect(screen.getByText(second!.answer)).toBeVisible();
    expect(firstButton).toHaveAttribute('aria-expanded', 'false');
  });

  it('opens every answer from the keyboard, covering IPX7, the battery, sizes and unlimited pets', async () => {
    const user = setup();
    const shown: string[] = [];
    screen.getByRole('button', { name: SUPPORT_FAQ[0]!.question }).focus();
    for (const [index, item] of SUPPORT_FAQ.entries()) {
      if (index > 0) await user.keyboard('{ArrowDown}');
      const trigger = screen.getByRole('button', { name: item.question });
      expect(trigger).toHaveFocus();
      await user.keyboard(index % 2 === 0 ? '{Enter}' : ' ');
      expect(trigger).toHaveAttribute('aria-expanded', 'true');
      // What is on the screen, not the content constant: the answer region of this question.
      const answer = screen.getByRole('region', { name: item.question });
      expect(answer).toBeVisible();
      shown.push(answer.textContent ?? '');
    }
    expect(shown).toHaveLength(5);
    const text = shown.join(' ');
    for (const claim of [
      'IPX7',
      'up to 7 days',
      '2 hours',
      'USB-C',
      'XS to XXL',
      '5 to 150 lbs',
      'no limit',
    ])
      expect(text).toContain(claim);
  });

  it('marks Live Chat and the four resources as coming soon', () => {
    setup();
    for (const title of ['User Manual', 'Video Tutorials', 'Troubleshooting', 'Warranty Info'])
      expect(screen.getByRole('heading', { name: title })).toBeInTheDocument();
    expect(screen.getAllByText('Coming soon')).toHaveLength(5);
  });
});
