import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { makeUser } from '@/testing/fixtures';
import { makeAlert, makeDevice } from '@/testing/devices';
import { DeviceCard } from './device-card';

const NOW = Date.parse('2025-07-01T12:00:00.000Z');
const show = (overrides: Parameters<typeof makeDevice>[0]) =>
  renderWithProviders(
    <DeviceCard device={makeDevice(overrides)} now={NOW} onEdit={() => {}} onDelete={() => {}} />,
  );

describe('DeviceCard', () => {
  it('shows set-up steps for an unregistered collar, with its WiFi name and local address', () => {
    show({ device_id: 'PET-AB12', registration_status: 'unregistered' });
    expect(screen.getByText('Unregistered')).toBeInTheDocument();
    expect(screen.getByText('PawGuard-PET-AB12')).toBeInTheDocument();
    expect(screen.getByText('http://192.168.4.1')).toBeInTheDocument();
    expect(screen.getByText('Power on the collar.')).toBeInTheDocument();
  });

  it("says a registered collar that never sent a reading is waiting for it, not 'Device Connected'", () => {
    show({ registration_status: 'assigned', firmware_version: null, last_seen: null });
    expect(screen.getByText('Registered')).toBeInTheDocument();
    expect(screen.queryByText('Device Connected')).not.toBeInTheDocument();
    expect(screen.getAllByText('Waiting for the first reading')).not.toHaveLength(0);
    expect(screen.getByText(/starts sending readings once it is powered on/)).toBeInTheDocument();
    expect(screen.getByText('How to set it up')).toBeInTheDocument();
    expect(screen.getByText('No vitals data yet')).toBeInTheDocument();
  });

  it("says 'Device Connected' for a collar that never reported itself while its readings are fresh", () => {
    show({
      registration_status: 'active',
      status: 'active',
      firmware_version: null,
      temperature_celsius: 30,
      vitals_status: 'SAFE',
      vitals_recorded_at: new Date(NOW - 5_000).toISOString(),
      last_seen: new Date(NOW - 5_000).toISOString(),
    });
    expect(screen.getByText('Device Connected')).toBeInTheDocument();
    expect(
      screen.getByText(/registered to your account and is sending readings/),
    ).toBeInTheDocument();
    expect(screen.queryByText(/once it is powered on/)).not.toBeInTheDocument();
    expect(screen.queryByText('How to set it up')).not.toBeInTheDocument();
  });

  it("does not say 'Device Connected' once its readings are 2 minutes old (Monitoring says Disconnected)", () => {
    show({
      registration_status: 'active',
      firmware_version: null,
      temperature_celsius: 30,
      vitals_status: 'SAFE',
      vitals_recorded_at: new Date(NOW - 180_000).toISOString(),
      last_seen: new Date(NOW - 180_000).toISOString(),
    });
    expect(screen.queryByText('Device Connected')).not.toBeInTheDocument();
    expect(screen.getByText('3m ago')).toBeInTheDocument();
  });

  it('shows the firmware to an admin only', () => {
    const device = makeDevice({
      registration_status: 'active',
      firmware_version: 'collar-sim 1.0',
    });
    const { unmount } = renderWithProviders(
      <DeviceCard device={device} now={NOW} onEdit={() => {}} onDelete={() => {}} />,
      { auth: fakeAuth(makeUser({ role: 'user' })) },
    );
    expect(screen.queryByText('collar-sim 1.0')).not.toBeInTheDocument();
    expect(screen.queryByText('Firmware')).not.toBeInTheDocument();
    unmount();
    renderWithProviders(
      <DeviceCard device={device} now={NOW} onEdit={() => {}} onDelete={() => {}} />,
      { auth: fakeAuth(makeUser({ role: 'admin' })) },
    );
    expect(screen.getByText('collar-sim 1.0')).toBeInTheDocument();
  });

  it('titles the card with an h2, the level under the page’s h1', () => {
    show({ device_name: 'Rex collar' });
    expect(screen.getByRole('heading', { level: 2, name: 'Rex collar' })).toBeInTheDocument();
  });

  it('shows the temperature in °C and °F with one decimal, humidity, status, battery and last seen', () => {
    show({
      registration_status: 'active',
      status: 'active',
      firmware_version: '1.2.0',
      temperature_celsius: 31.46,
      humidity_percent: 55,
      vitals_status: 'WARNING',
      battery_level: 35,
      last_seen: new Date(NOW - 5_000).toISOString(),
    });
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(screen.queryByText('Device Connected')).not.toBeInTheDocument();
    expect(screen.getByText(/31\.5°C/)).toBeInTheDocument();
    expect(screen.getByText(/88\.6°F/)).toBeInTheDocument();
    expect(screen.getByText('55.0%')).toBeInTheDocument();
    expect(screen.getByText('Body temperature (collar)')).toBeInTheDocument();
    // The level in the one word set, dimmed: this reading is not fresh.
    expect(screen.getByText('Warning')).toHaveAttribute('data-level', 'WARNING');
    expect(screen.getByRole('meter', { name: 'Battery' })).toHaveAttribute('data-level', 'low');
    expect(screen.getByText('Just now')).toBeInTheDocument();
  });

  it('says why of the reading it shows, not of the reading an open heat alert rose on', () => {
    const device = makeDevice({
      registration_status: 'active',
      status: 'active',
      firmware_version: '1.0.0',
      temperature_celsius: 41.5,
      vitals_status: 'CRITICAL',
      threshold_status: 'CRITICAL',
      risk_band: 'DANGER',
      risk_reasons: ['extreme heat at the collar, about 32× the risk'],
      vitals_recorded_at: new Date(NOW - 180_000).toISOString(),
      last_seen: new Date(NOW - 180_000).toISOString(),
    });
    const alert = makeAlert(
      {
        level: 'CRITICAL',
        reasons: ['heat index 43 °C (109 °F) at the collar, about 20× the risk'],
      },
      device,
    );
    renderWithProviders(
      <DeviceCard
        device={device}
        now={NOW}
        alerts={[alert]}
        onEdit={() => {}}
        onDelete={() => {}}
      />,
    );
    expect(screen.getByText('Last known').parentElement).toHaveTextContent('Last known Critical');
    expect(
      screen.getByText(
        'Collar temperature at or above your critical threshold · Extreme heat at the collar',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/heat index 43 °C/i)).not.toBeInTheDocument();
    // The alert is one line with Resolve; what to do is the card's, for the alert's level.
    const banner = screen.getByRole('alert');
    expect(within(banner).getByText(/Critical heat alert/)).toBeInTheDocument();
    expect(within(banner).queryByText('Why')).not.toBeInTheDocument();
    expect(screen.getByText('What to do and why')).toBeInTheDocument();
  });

  it('colours the battery bar green over 50 and red at 20 or less', () => {
    show({ battery_level: 51 });
    expect(screen.getByRole('meter', { name: 'Battery' })).toHaveAttribute('data-level', 'good');
  });

  it('labels an active collar whose status is not active as Inactive', () => {
    show({ registration_status: 'active', status: 'offline', firmware_version: '1.0' });
    expect(screen.getByText('Inactive')).toBeInTheDocument();
  });

  it('links a registered collar to its readings history, not an unregistered one (it sends none)', () => {
    show({ id: 'a1b2', device_name: 'Rex collar', registration_status: 'active' });
    expect(screen.getByRole('link', { name: 'History of Rex collar' })).toHaveAttribute(
      'href',
      '/devices/a1b2/history',
    );
  });

  it('offers no history for an unregistered device (it sends no readings)', () => {
    show({ device_name: 'Spare', registration_status: 'unregistered' });
    expect(screen.queryByRole('link', { name: /History/ })).not.toBeInTheDocument();
  });
});

describe('DeviceCard on a pet shared with the viewer', () => {
  const sharedCollar = () =>
    makeDevice({ device_name: 'Biscuit collar', dog_name: 'Biscuit', owner_name: 'Riley Owner' });

  it('says whose it is, and gives a caregiver neither Edit nor Delete, saying why', () => {
    renderWithProviders(
      <DeviceCard
        device={sharedCollar()}
        access="caregiver"
        now={NOW}
        onEdit={() => {}}
        onDelete={() => {}}
      />,
    );
    expect(screen.getByText('Shared by Riley Owner · Caregiver')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Biscuit collar' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Biscuit collar' })).toBeNull();
    expect(screen.getByText('Only Riley Owner and co-owners change this collar.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'History of Biscuit collar' })).toBeVisible();
    expect(screen.getByText(/registered to Riley Owner's account/)).toBeInTheDocument();
  });

  it('lets a co-owner edit it but not delete it', () => {
    renderWithProviders(
      <DeviceCard
        device={sharedCollar()}
        access="co_owner"
        now={NOW}
        onEdit={() => {}}
        onDelete={() => {}}
      />,
    );
    expect(screen.getByText('Shared by Riley Owner · Co-owner')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Biscuit collar' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Delete Biscuit collar' })).toBeNull();
  });

  it('shows its owner every action and no tag', () => {
    show({ device_name: 'Rex collar' });
    expect(screen.queryByText(/^Shared by/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Edit Rex collar' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Delete Rex collar' })).toBeVisible();
  });
});
