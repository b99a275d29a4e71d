import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderWithProviders } from '@/testing/render';
import { makeDevice } from '@/testing/devices';
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

  it("says 'Device Connected' and 'No vitals data yet' for a registered collar that has not reported itself", () => {
    show({ registration_status: 'assigned', firmware_version: null });
    expect(screen.getByText('Registered')).toBeInTheDocument();
    expect(screen.getByText('Device Connected')).toBeInTheDocument();
    expect(screen.getByText(/It reports itself once it is powered on/)).toBeInTheDocument();
    expect(screen.getByText('No vitals data yet')).toBeInTheDocument();
    expect(screen.getByText('Waiting for the first reading')).toBeInTheDocument();
  });

  it("says a collar that sends readings but never reported itself is connected, with no 'once it is powered on'", () => {
    show({
      registration_status: 'active',
      status: 'active',
      firmware_version: null,
      temperature_celsius: 30,
      vitals_status: 'SAFE',
      last_seen: new Date(NOW - 5_000).toISOString(),
    });
    expect(screen.getByText('Device Connected')).toBeInTheDocument();
    expect(
      screen.getByText(/registered to your account and has sent readings/),
    ).toBeInTheDocument();
    expect(screen.queryByText(/once it is powered on/)).not.toBeInTheDocument();
    expect(screen.queryByText('How to set it up')).not.toBeInTheDocument();
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
    expect(screen.getByText('WARNING')).toBeInTheDocument();
    expect(screen.getByRole('meter', { name: 'Battery' })).toHaveAttribute('data-level', 'low');
    expect(screen.getByText('Just now')).toBeInTheDocument();
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
