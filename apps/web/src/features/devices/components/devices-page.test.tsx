import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch } from '@/testing/fixtures';
import { makeAlert, makeDevice } from '@/testing/devices';
import { DevicesPage } from './devices-page';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

/** Signed in as the owner of the fake collars. */
const owner = () => fakeAuth(makeUser({ id: makeDevice().user_id! }));

async function confirmTextFor(device: ReturnType<typeof makeDevice>) {
  stubFetch({
    'GET /api/devices': () => jsonResponse(200, { devices: [device], total: 1 }),
    'GET /api/dogs': () => jsonResponse(200, { dogs: [], total: 0 }),
  });
  renderWithProviders(<DevicesPage />, { auth: owner() });
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: `Delete ${device.device_name}` }));
  return within(await screen.findByRole('alertdialog')).getByText(new RegExp(device.device_id))
    .textContent;
}

describe('deleting a device on the Devices screen', () => {
  it('tells the owner a collar is released and can be registered again', async () => {
    const text = await confirmTextFor(
      makeDevice({
        device_id: 'PET-RL01',
        device_name: 'Rex collar',
        registration_status: 'assigned',
      }),
    );
    expect(text).toContain('released and can be registered again');
  });

  it('tells the owner an unregistered device is deleted, not released (the server removes it)', async () => {
    const text = await confirmTextFor(
      makeDevice({
        device_id: 'PET-UR01',
        device_name: 'Spare',
        registration_status: 'unregistered',
      }),
    );
    expect(text).toContain('PET-UR01 will be deleted from your account');
    expect(text).not.toContain('released');
  });
});

describe('an open alert on the Devices screen', () => {
  it('shows on its collar’s card beside a SAFE status, with Resolve', async () => {
    const device = makeDevice({
      device_id: 'PET-HT01',
      device_name: 'Rex collar',
      registration_status: 'active',
      status: 'active',
      temperature_celsius: 20,
      humidity_percent: 50,
      vitals_status: 'SAFE',
      last_seen: new Date().toISOString(),
      vitals_recorded_at: new Date().toISOString(),
    });
    stubFetch({
      'GET /api/devices': () => jsonResponse(200, { devices: [device], total: 1 }),
      'GET /api/dogs': () => jsonResponse(200, { dogs: [], total: 0 }),
      'GET /api/alerts?resolved=false&limit=100': () =>
        jsonResponse(200, {
          alerts: [makeAlert({ level: 'CRITICAL', opened_at: new Date().toISOString() }, device)],
          total: 1,
        }),
    });
    renderWithProviders(<DevicesPage />, { auth: owner() });
    const card = within(
      (await screen.findByRole('heading', { name: 'Rex collar' })).closest<HTMLElement>(
        '[data-slot="card"]',
      )!,
    );
    const banner = await card.findByRole('alert');
    expect(banner).toHaveTextContent('Critical heat alert');
    expect(
      within(banner).getByRole('button', { name: 'Resolve heat alert for Biscuit' }),
    ).toBeInTheDocument();
    expect(card.getByText('Safe')).toHaveAttribute('data-level', 'SAFE');
  });
});

describe('editing a device', () => {
  it('opens with focus on its name, not on the Device ID that cannot change, and gives it back on close', async () => {
    const device = makeDevice({ device_name: 'Rex collar' });
    stubFetch({
      'GET /api/devices': () => jsonResponse(200, { devices: [device], total: 1 }),
      'GET /api/dogs': () => jsonResponse(200, { dogs: [], total: 0 }),
    });
    renderWithProviders(<DevicesPage />, { auth: owner() });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Rex collar' }));
    const form = await screen.findByRole('form', { name: 'Edit Device' });
    expect(within(form).getByLabelText('Device Name *')).toHaveFocus();
    // Closed, it gives focus back to the button that opened it.
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Edit Rex collar' })).toHaveFocus();
  });
});
