import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EMERGENCY_CLINICS } from '@pawguard/shared/content';
import { renderWithProviders } from '@/testing/render';
import { EmergencyPage } from './emergency-page';

function setup() {
  renderWithProviders(<EmergencyPage />, { route: '/emergency' });
  return userEvent.setup();
}

const results = () => screen.queryByRole('heading', { name: /^Emergency Vets Near/ });

describe('EmergencyPage', () => {
  it('does nothing for a blank or whitespace-only ZIP code', async () => {
    const user = setup();
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(results()).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('ZIP code'), '   ');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(results()).not.toBeInTheDocument();
    expect(screen.queryByText('Sample results')).not.toBeInTheDocument();
  });

  it('searches when Enter is pressed, showing the three sample clinics with every field', async () => {
    const user = setup();
    await user.type(screen.getByLabelText('ZIP code'), ' 12345 {Enter}');

    const heading = screen.getByRole('heading', { name: 'Emergency Vets Near 12345' });
    expect(heading).toHaveFocus();
    expect(screen.getAllByText(/Sample results/).length).toBeGreaterThan(0);
    const clinics = within(screen.getByRole('list', { name: 'Clinics' })).getAllByRole('listitem');
    expect(clinics).toHaveLength(3);
    EMERGENCY_CLINICS.forEach((clinic, i) => {
      const card = within(clinics[i]!);
      for (const text of [clinic.name, clinic.address, clinic.phone, clinic.hours, clinic.distance])
        expect(card.getByText(text)).toBeInTheDocument();
      expect(card.getByText(`Rated ${clinic.rating.toFixed(1)} out of 5`)).toBeInTheDocument();
      // Inert sample buttons, and visibly so.
      expect(card.getByRole('button', { name: new RegExp(`^Call ${clinic.name}`) })).toBeDisabled();
      expect(
        card.getByRole('button', { name: new RegExp(`^Get directions to ${clinic.name}`) }),
      ).toBeDisabled();
    });
  });

  it('searches with the button and follows a new ZIP code', async () => {
    const user = setup();
    await user.type(screen.getByLabelText('ZIP code'), '90210');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.getByRole('heading', { name: 'Emergency Vets Near 90210' })).toBeInTheDocument();

    await user.clear(screen.getByLabelText('ZIP code'));
    await user.type(screen.getByLabelText('ZIP code'), '10001{Enter}');
    expect(screen.getByRole('heading', { name: 'Emergency Vets Near 10001' })).toBeInTheDocument();
  });

  it('always shows the four preparation tips and the 24/7 poison helpline', () => {
    setup();
    for (const tip of [
      'Call ahead',
      'Bring medical records',
      'Stay calm and drive safely',
      'Have a payment method ready',
    ])
      expect(screen.getByRole('heading', { name: tip })).toBeInTheDocument();
    expect(screen.getByText('ASPCA Animal Poison Control')).toBeInTheDocument();
    expect(screen.getByText('Available 24/7')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Call (888) 426-4435' })).toHaveAttribute(
      'href',
      'tel:+18884264435',
    );
  });

  it('puts the real helpline before the sample clinics in reading and tab order', async () => {
    const user = setup();
    await user.type(screen.getByLabelText('ZIP code'), '10001{Enter}');
    const headings = screen.getAllByRole('heading').map((h) => h.textContent);
    expect(headings.indexOf('Pet Poison Helpline')).toBeGreaterThan(
      headings.indexOf('Search by ZIP code'),
    );
    expect(headings.indexOf('Pet Poison Helpline')).toBeLessThan(
      headings.indexOf('Emergency Vets Near 10001'),
    );
    // Tab from the search button reaches the helpline's call link before any clinic control.
    screen.getByRole('button', { name: 'Search' }).focus();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Call (888) 426-4435' }));
  });
});
