import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch } from '@/testing/fixtures';
import { makeDevice } from '@/testing/devices';
import { AllDevicesPage } from './all-devices-page';

describe('All Devices', () => {
  it("says 'No devices match these filters.' when only a filter is set and nothing matches", async () => {
    stubFetch({
      'GET /api/devices/all': () =>
        jsonResponse(200, {
          devices: [
            makeDevice({
              registration_status: 'unassigned',
              user_id: null,
              dog_id: null,
              last_seen: null,
            }),
          ],
          total: 1,
        }),
    });
    renderWithProviders(<AllDevicesPage />, { auth: fakeAuth(makeUser({ role: 'admin' })) });
    await screen.findByRole('list', { name: 'Devices' });
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'active');
    expect(await screen.findByText('No devices match these filters.')).toBeInTheDocument();
  });

  it('counts each status as its filter shows it', async () => {
    const seen = new Date().toISOString();
    stubFetch({
      'GET /api/devices/all': () =>
        jsonResponse(200, {
          devices: [
            makeDevice({
              id: 'a',
              registration_status: 'unassigned',
              user_id: null,
              last_seen: null,
            }),
            makeDevice({ id: 'b', registration_status: 'assigned', last_seen: null }),
            makeDevice({ id: 'c', registration_status: 'active', last_seen: seen }),
            makeDevice({ id: 'd', registration_status: 'active', last_seen: null }),
          ],
          total: 4,
        }),
    });
    renderWithProviders(<AllDevicesPage />, { auth: fakeAuth(makeUser({ role: 'admin' })) });
    await screen.findByRole('list', { name: 'Devices' });
    const counts = within(screen.getByRole('list', { name: 'Device counts' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(counts).toEqual([
      'Total4',
      'Online1',
      'Unassigned1',
      'Assigned1',
      'Active2',
      'Offline2',
    ]);
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'assigned');
    expect(
      within(screen.getByRole('list', { name: 'Devices' })).getAllByRole('listitem'),
    ).toHaveLength(1);
  });

  it('says "Last known" for a level whose reading is 2 minutes old or more, as the owner’s card does', async () => {
    const at = (s: number) => new Date(Date.now() - s * 1000).toISOString();
    const collar = (id: string, device_id: string, secondsAgo: number) =>
      makeDevice({
        id,
        device_id,
        registration_status: 'active',
        status: 'active',
        temperature_celsius: 41.5,
        vitals_status: 'CRITICAL',
        vitals_recorded_at: at(secondsAgo),
        last_seen: at(secondsAgo),
      });
    stubFetch({
      'GET /api/devices/all': () =>
        jsonResponse(200, {
          devices: [collar('old', 'PET-OLD1', 300), collar('new', 'PET-NEW1', 5)],
          total: 2,
        }),
    });
    renderWithProviders(<AllDevicesPage />, { auth: fakeAuth(makeUser({ role: 'admin' })) });
    const level = async (deviceId: string) =>
      within(
        (await screen.findByRole('heading', { name: deviceId })).closest('li') as HTMLElement,
      ).getByText('Safe zone').nextElementSibling as HTMLElement;
    const old = (await level('PET-OLD1')).querySelector('[data-level]')!;
    expect(old).toHaveTextContent('Last known Critical');
    expect(old).toHaveAttribute('data-stale', 'true');
    const fresh = (await level('PET-NEW1')).querySelector('[data-level]')!;
    expect(fresh).toHaveTextContent(/^Critical$/);
    expect(fresh).not.toHaveAttribute('data-stale');
  });
});
