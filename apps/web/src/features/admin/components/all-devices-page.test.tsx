import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
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
});
