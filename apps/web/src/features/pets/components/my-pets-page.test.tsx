import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch } from '@/testing/fixtures';
import { makeDevice, makePet } from '@/testing/devices';
import { MyPetsPage } from './my-pets-page';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

describe('the pet card quick actions', () => {
  it("take View Activity and Health Report to the history of the pet's collar that reported last", async () => {
    const pet = makePet({ name: 'Biscuit' });
    const older = makeDevice({ dog_id: pet.id, vitals_recorded_at: '2025-07-01T10:00:00.000Z' });
    const latest = makeDevice({ dog_id: pet.id, vitals_recorded_at: '2025-07-01T11:00:00.000Z' });
    stubFetch({
      'GET /api/dogs': () => jsonResponse(200, { dogs: [pet], total: 1 }),
      'GET /api/devices': () => jsonResponse(200, { devices: [older, latest], total: 2 }),
    });
    renderWithProviders(<MyPetsPage />, { auth: fakeAuth(makeUser()) });
    const history = `/devices/${latest.id}/history`;
    expect(await screen.findByRole('link', { name: 'View Activity' })).toHaveAttribute(
      'href',
      history,
    );
    expect(screen.getByRole('link', { name: 'Health Report' })).toHaveAttribute('href', history);
    expect(screen.getByRole('link', { name: 'Check Temperature' })).toHaveAttribute(
      'href',
      '/monitoring',
    );
  });

  it('take them to Monitoring while the pet has no collar', async () => {
    stubFetch({
      'GET /api/dogs': () => jsonResponse(200, { dogs: [makePet()], total: 1 }),
      'GET /api/devices': () => jsonResponse(200, { devices: [], total: 0 }),
    });
    renderWithProviders(<MyPetsPage />, { auth: fakeAuth(makeUser()) });
    expect(await screen.findByRole('link', { name: 'View Activity' })).toHaveAttribute(
      'href',
      '/monitoring',
    );
  });
});
