import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/testing/render';
import { makeAdminUser } from '@/testing/fixtures';
import { UserTable } from './user-table';

const users = [
  makeAdminUser({ name: 'Alex Admin', email: 'alex@pawguard.test', role: 'admin', dogs_count: 0 }),
  makeAdminUser({ name: 'Riley Owner', email: 'riley@example.com', role: 'user', dogs_count: 2 }),
  makeAdminUser({ name: 'Sam Walker', email: 'sam@example.com', role: 'user', dogs_count: 1 }),
];

function setup(props: Partial<Parameters<typeof UserTable>[0]> = {}) {
  const handlers = { onViewDetails: vi.fn(), onChangeRole: vi.fn(), onRetry: vi.fn() };
  renderWithProviders(
    <UserTable
      users={users}
      isLoading={false}
      isError={false}
      currentUserId={users[0]!.id}
      {...handlers}
      {...props}
    />,
  );
  return { ...handlers, user: userEvent.setup() };
}

const rowNames = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).queryAllByRole('cell')[0]?.textContent ?? '');

describe('UserTable', () => {
  it('lists every user with the User, Role, Pets, Joined and Actions columns', () => {
    setup();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'User',
      'Role',
      'Pets',
      'Joined',
      'Actions',
    ]);
    expect(rowNames()).toHaveLength(3);
    expect(screen.getByText('Showing 3 of 3 users')).toBeInTheDocument();
  });

  it('searches by name or e-mail, ignoring case', async () => {
    const { user } = setup();
    await user.type(screen.getByLabelText('Search users'), 'RILEY');
    expect(rowNames()).toEqual([expect.stringContaining('Riley Owner')]);

    await user.clear(screen.getByLabelText('Search users'));
    await user.type(screen.getByLabelText('Search users'), 'sam@');
    expect(rowNames()).toEqual([expect.stringContaining('Sam Walker')]);
  });

  it('filters by role: All Roles, Admins, Users', async () => {
    const { user } = setup();
    const filter = screen.getByLabelText('Role');
    expect(
      within(filter)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All Roles', 'Admins', 'Users']);

    await user.selectOptions(filter, 'Admins');
    expect(rowNames()).toEqual([expect.stringContaining('Alex Admin')]);

    await user.selectOptions(filter, 'Users');
    expect(rowNames()).toHaveLength(2);
  });

  it('combines search and role filter, and says so when nothing matches', async () => {
    const { user } = setup();
    await user.selectOptions(screen.getByLabelText('Role'), 'Admins');
    await user.type(screen.getByLabelText('Search users'), 'riley');
    expect(screen.getByText('No users match your search.')).toBeInTheDocument();
    expect(screen.getByText('Showing 0 of 3 users')).toBeInTheDocument();
  });

  it('opens details and the role dialog, but not a role change for yourself', async () => {
    const { user, onViewDetails, onChangeRole } = setup();
    await user.click(screen.getByRole('button', { name: 'View details for Riley Owner' }));
    expect(onViewDetails).toHaveBeenCalledWith(users[1]);
    await user.click(screen.getByRole('button', { name: 'Change role for Riley Owner' }));
    expect(onChangeRole).toHaveBeenCalledWith(users[1]);
    expect(screen.getByRole('button', { name: 'Change role for Alex Admin' })).toBeDisabled();
  });

  it('offers Try Again when the users could not be loaded', async () => {
    const { user, onRetry } = setup({ users: undefined, isError: true });
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(onRetry).toHaveBeenCalled();
  });
});
