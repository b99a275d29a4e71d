import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeAdminUser, makeUser, stubFetch, type Routes } from '@/testing/fixtures';
import { AdminDashboard } from './admin-dashboard';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const admin = makeUser({ role: 'admin', name: 'Administrator' });
const USERS = 'GET /api/auth/users';
const PETS = 'GET /api/dogs/all?limit=1';
const usersAnswer = () =>
  jsonResponse(200, {
    users: [makeAdminUser({ id: admin.id, role: 'admin' })],
    total: 1,
    admin_count: 1,
    active_count: 0,
  });
const petsAnswer = () => jsonResponse(200, { dogs: [], total: 0 });

function setup(routes: Routes) {
  stubFetch(routes);
  renderWithProviders(<AdminDashboard />, { auth: fakeAuth(admin) });
  return within(screen.getByText('Platform Health').closest('li')!);
}

describe('the Platform Health card', () => {
  it('says the figures are being checked, not that all is well, while the lists load (or are retried)', () => {
    const health = setup({ [USERS]: () => new Promise<Response>(() => {}), [PETS]: petsAnswer });
    expect(health.getByText('Checking…')).toBeInTheDocument();
    // The value itself is the spec's static one.
    expect(health.getByText('Healthy')).toBeInTheDocument();
    expect(health.queryByText('All systems operational')).not.toBeInTheDocument();
  });

  it("shows the spec's static Healthy once both lists have loaded", async () => {
    const health = setup({ [USERS]: usersAnswer, [PETS]: petsAnswer });
    expect(await health.findByText('All systems operational')).toBeInTheDocument();
    expect(health.getByText('Healthy')).toBeInTheDocument();
  });

  it('says some data failed, not that all is operational, when a list failed', async () => {
    const health = setup({
      [USERS]: () => jsonResponse(500, { error: 'Internal Server Error' }),
      [PETS]: petsAnswer,
    });
    expect(await health.findByText('Service up; some data failed to load')).toBeInTheDocument();
    expect(health.queryByText('All systems operational')).not.toBeInTheDocument();
  });
});

describe('the user table', () => {
  it('says once how many users it shows, also while searching', async () => {
    setup({ [USERS]: usersAnswer, [PETS]: petsAnswer });
    expect(await screen.findByText('Showing 1 of 1 users')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Search users'), 'zzz');
    expect(screen.getByText('No users match your search.')).toBeInTheDocument();
    expect(screen.getAllByText(/^Showing \d+ of \d+ users/).map((p) => p.textContent)).toEqual([
      'Showing 0 of 1 users',
    ]);
  });
});

describe('the user details', () => {
  it('open with focus on the dialog, not on its Delete user button', async () => {
    const dave = makeAdminUser({ name: 'Dave' });
    setup({
      [USERS]: () =>
        jsonResponse(200, {
          users: [makeAdminUser({ id: admin.id, role: 'admin' }), dave],
          total: 2,
          admin_count: 1,
          active_count: 0,
        }),
      [PETS]: petsAnswer,
      [`GET /api/dogs/all?user_id=${dave.id}`]: () => jsonResponse(200, { dogs: [], total: 0 }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'View details for Dave' }));
    const dialog = await screen.findByRole('dialog', { name: 'User details' });
    expect(within(dialog).getByRole('button', { name: 'Delete user' })).toBeInTheDocument();
    expect(dialog).toHaveFocus();
  });
});
