import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { Alert } from '@pawguard/shared';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { makeUser } from '@/testing/fixtures';
import { makeAlert } from '@/testing/devices';
import { AlertBanner } from './alert-banner';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const NOW = Date.parse('2025-07-01T12:00:00.000Z');

const show = (alert: Alert, compact = false) =>
  renderWithProviders(<AlertBanner canResolve alert={alert} now={NOW} compact={compact} />, {
    auth: fakeAuth(makeUser()),
  });

describe('the alert banner', () => {
  it('says why a heat alert opened, the first aid for its level and where the emergency vet is', () => {
    show(
      makeAlert({
        reasons: [
          'exercise for 25 minutes, about 4× the risk',
          'hot and humid at the collar (heat index 34 °C), about 8× the risk',
        ],
      }),
    );
    const banner = screen.getByRole('alert');
    expect(banner).toHaveTextContent('Danger heat alert');
    expect(within(banner).getByText('Why')).toBeInTheDocument();
    expect(
      within(banner).getByText('exercise for 25 minutes, about 4× the risk'),
    ).toBeInTheDocument();
    expect(
      within(banner).getByText('hot and humid at the collar (heat index 34 °C), about 8× the risk'),
    ).toBeInTheDocument();
    expect(
      within(banner).getByText('Wet the coat with cool, not ice-cold, water and fan it.'),
    ).toBeInTheDocument();
    expect(within(banner).getByRole('link', { name: 'Find an emergency vet' })).toHaveAttribute(
      'href',
      '/emergency',
    );
  });

  it('gives a WARNING its own, gentler first aid, and no "Why" without reasons', () => {
    show(makeAlert({ level: 'WARNING' }), true);
    const banner = screen.getByRole('alert');
    expect(within(banner).queryByText('Why')).not.toBeInTheDocument();
    expect(within(banner).getByText('What to do now')).toBeInTheDocument();
    expect(banner).toHaveTextContent('Stop exercise and move to shade or indoors.');
    expect(banner).not.toHaveTextContent('Call your vet.');
  });

  it('leaves why, first aid and the link to a heat-risk panel beside it when told to', () => {
    renderWithProviders(
      <AlertBanner
        canResolve
        alert={makeAlert({ reasons: ['a parked car'] })}
        now={NOW}
        compact
        guidance={false}
      />,
      { auth: fakeAuth(makeUser()) },
    );
    const banner = screen.getByRole('alert');
    expect(banner).toHaveTextContent('Danger heat alert');
    expect(
      within(banner).getByRole('button', { name: 'Resolve heat alert for Biscuit' }),
    ).toBeInTheDocument();
    expect(banner).not.toHaveTextContent('a parked car');
    expect(banner).not.toHaveTextContent('Call your vet.');
  });

  it('shows no reasons or first aid on an offline alert', () => {
    show(makeAlert({ type: 'offline', level: null, reasons: [] }));
    const banner = screen.getByRole('alert');
    expect(banner).toHaveTextContent('Collar offline: no reading for 10 minutes');
    expect(within(banner).queryByText('Why')).not.toBeInTheDocument();
    expect(within(banner).queryByRole('link', { name: 'Find an emergency vet' })).toBeNull();
  });

  it('names each Resolve for its alert, and offers none to a viewer who does not own the collar', () => {
    show(makeAlert({ type: 'offline', level: null, opened_at: new Date(NOW).toISOString() }));
    show(makeAlert({ type: 'offline', level: null, dog_name: 'Rex' }));
    // A collar on no pet is named by its own name.
    show(makeAlert({ type: 'offline', level: null, dog_name: null }));
    expect(screen.getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual([
      'Resolve offline alert for Biscuit',
      'Resolve offline alert for Rex',
      'Resolve offline alert for Biscuit collar',
    ]);
    expect(screen.getAllByRole('alert')[0]).toHaveTextContent('Opened just now');
    renderWithProviders(
      <AlertBanner
        canResolve={false}
        alert={makeAlert({ type: 'low_battery', level: null })}
        now={NOW}
      />,
      { auth: fakeAuth(makeUser({ role: 'admin' })) },
    );
    const lowBattery = screen.getAllByRole('alert')[3];
    expect(lowBattery).toHaveTextContent('Battery low');
    expect(within(lowBattery!).queryByRole('button')).toBeNull();
  });

  it('a collar that seems off is a calm note: no level, no first aid, how to read it', () => {
    show(makeAlert({ type: 'collar_off', level: null, reasons: [] }));
    const banner = screen.getByRole('alert');
    expect(banner).toHaveAttribute('data-alert-type', 'collar_off');
    expect(banner).not.toHaveAttribute('data-level');
    expect(banner).toHaveTextContent('Collar off?');
    expect(banner).toHaveTextContent('If it is charging or put away, all is well.');
    expect(within(banner).queryByText('Why')).toBeNull();
    expect(within(banner).queryByRole('link', { name: 'Find an emergency vet' })).toBeNull();
  });

  it('says why a collar’s readings are refused, with no level and no first aid', () => {
    show(
      makeAlert({
        type: 'over_budget',
        level: null,
        reasons: ['Your account keeps as many readings as its storage quota allows.'],
      }),
    );
    const banner = screen.getByRole('alert');
    expect(banner).toHaveAttribute('data-alert-type', 'over_budget');
    expect(banner).not.toHaveAttribute('data-level');
    expect(banner).toHaveTextContent('Readings refused');
    expect(banner).toHaveTextContent('as many readings as its storage quota allows');
    expect(within(banner).queryByText('Why')).toBeNull();
    expect(
      screen.getByRole('button', { name: /^Resolve readings refused alert for / }),
    ).toBeInTheDocument();
  });

  it('says who acknowledged a heat alert and when, on the owner’s clock, and offers no second Acknowledge', () => {
    // 11:57 UTC is 12:57 in London (summer time), three minutes before NOW.
    show(makeAlert({ acknowledged_at: '2025-07-01T11:57:00.000Z', acknowledged_by_name: 'Sam' }));
    const banner = screen.getByRole('alert');
    const line = within(banner).getByTestId('alert-acknowledgement');
    expect(line).toHaveTextContent(/^Acknowledged by Sam at 12:57( PM)? \(3m ago\)$/);
    expect(within(line).getByText(/12:57/)).toHaveAttribute('datetime', '2025-07-01T11:57:00.000Z');
    expect(within(banner).queryByRole('button', { name: /^Acknowledge\b/ })).toBeNull();
  });

  it('says only when an alert was acknowledged when it does not say by whom', () => {
    show(makeAlert({ acknowledged_at: '2025-06-30T09:00:00.000Z', acknowledged_by_name: null }));
    const line = within(screen.getByRole('alert')).getByTestId('alert-acknowledgement');
    // Not today: the date too.
    expect(line).toHaveTextContent(/^Acknowledged at Jun 30, 2025.*10:00.*\(1d ago\)$/);
    expect(line).not.toHaveTextContent('by');
  });

  it('says nothing of an acknowledgement while nobody has acknowledged the alert', () => {
    show(makeAlert());
    expect(screen.queryByTestId('alert-acknowledgement')).toBeNull();
    expect(
      screen.getByRole('button', { name: 'Acknowledge heat alert for Biscuit' }),
    ).toBeVisible();
  });
});
