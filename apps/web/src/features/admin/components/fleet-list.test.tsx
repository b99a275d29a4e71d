import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch } from '@/testing/fixtures';
import { makeDevice } from '@/testing/devices';
import { FleetList } from './fleet-list';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

describe("the Admin Portal's list of existing devices", () => {
  it('gives each line cut short on a phone its full text as a tooltip', async () => {
    const device = makeDevice({
      device_id: 'PET-LONG',
      device_name: 'Backyard collar with a very long name',
      device_address: 'AA:BB:CC:DD:EE:FF',
      owner_name: 'Maximiliana Featherstonehaugh-Smythe',
      dog_name: 'Sir Reginald Barkington',
    });
    stubFetch({
      'GET /api/devices/all': () => jsonResponse(200, { devices: [device], total: 1 }),
    });
    renderWithProviders(<FleetList onKeyRotated={() => {}} />, {
      auth: fakeAuth(makeUser({ role: 'admin' })),
    });
    const full =
      'Backyard collar with a very long name · AA:BB:CC:DD:EE:FF · Maximiliana Featherstonehaugh-Smythe · Sir Reginald Barkington';
    expect(await screen.findByText(full)).toHaveAttribute('title', full);
  });
});
