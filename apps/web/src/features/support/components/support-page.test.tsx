import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SUPPORT_CONTACT, SUPPORT_FAQ } from '@pawguard/shared/content';
import { renderWithProviders } from '@/testing/render';
import { SupportPage } from './support-page';

function setup() {
  renderWithProviders(<SupportPage />, { route: '/support' });
  return userEvent.setup();
}

describe('SupportPage', () => {
  it('offers e-mail and phone as real links, and the 24/7 emergency line', () => {
    setup();
    expect(screen.getByRole('link', { name: 'Send Email' })).toHaveAttribute(
      'href',
      `mailto:${SUPPORT_CONTACT.email}`,
    );
    expect(screen.getByRole('link', { name: 'Call Support' })).toHaveAttribute(
      'href',
      `tel:${SUPPORT_CONTACT.phoneTel}`,
    );
    expect(screen.getByRole('link', { name: /^Call Emergency Line/ })).toHaveAttribute(
      'href',
      `tel:${SUPPORT_CONTACT.emergencyPhoneTel}`,
    );
    expect(screen.getByText('Response within 2 hours')).toBeInTheDocument();
    expect(screen.getByText('Mon-Fri 8AM-8PM EST')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start Chat' })).toBeDisabled();
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

  it('covers IPX7, the battery, sizes and unlimited pets', async () => {
    const user = setup();
    for (const item of SUPPORT_FAQ)
      await user.click(screen.getByRole('button', { name: item.question }));
    const text = SUPPORT_FAQ.map((item) => item.answer).join(' ');
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
