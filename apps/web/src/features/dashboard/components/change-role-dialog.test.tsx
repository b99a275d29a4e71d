import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeAdminUser, makeUser, stubFetch } from '@/testing/fixtures';
import { ChangeRoleDialog } from './change-role-dialog';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const riley = makeAdminUser({ name: 'Riley Owner', role: 'user' });
const ROLE = `PUT /api/auth/users/${riley.id}/role`;

function open(routes: Parameters<typeof stubFetch>[0]) {
  const calls = stubFetch(routes);
  const onOpenChange = vi.fn();
  renderWithProviders(<ChangeRoleDialog user={riley} onOpenChange={onOpenChange} />, {
    auth: fakeAuth(makeUser({ role: 'admin' })),
  });
  return { calls, onOpenChange, user: userEvent.setup() };
}

describe('the Change role dialog', () => {
  beforeEach(() => {
    vi.mocked(toast.error).mockClear();
    vi.mocked(toast.success).mockClear();
  });

  it('offers the other role and sends it', async () => {
    const { calls, onOpenChange, user } = open({
      [ROLE]: () => jsonResponse(200, { user: { ...riley, role: 'admin' } }),
    });
    expect(screen.getByLabelText('New role')).toHaveValue('admin');
    await user.click(screen.getByRole('button', { name: 'Update role' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('User role updated to admin'));
    const put = calls.find((c) => `${c.method} ${c.url}` === ROLE)!;
    expect(JSON.parse(String(put.init.body))).toEqual({ role: 'admin' });
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it('keeps Update role disabled while the current role is chosen', async () => {
    const { calls, user } = open({});
    await user.selectOptions(screen.getByLabelText('New role'), 'User');
    expect(screen.getByRole('button', { name: 'Update role' })).toBeDisabled();
    expect(calls).toHaveLength(0);
  });

  it('says why when the server refuses', async () => {
    const { onOpenChange, user } = open({
      [ROLE]: () => jsonResponse(403, { error: 'Admin access required' }),
    });
    await user.click(screen.getByRole('button', { name: 'Update role' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Failed to update user role', {
        description: 'Admin access required',
      }),
    );
    expect(onOpenChange).not.toHaveBeenCalled();
  });
});
