import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { toast } from 'sonner';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { makeUser, stubFetch } from '@/testing/fixtures';
import AdminRoute from './admin';
import AdminDevicesRoute from './admin-devices';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

describe('the admin fleet screens for a user who is not an admin', () => {
  it.each([
    ['Admin Portal', AdminRoute],
    ['All Devices', AdminDevicesRoute],
  ])('%s shows Access Denied and the toast, and requests no data', (_name, Route) => {
    const calls = stubFetch({});
    renderWithProviders(<Route />, { auth: fakeAuth(makeUser({ role: 'user' })) });
    expect(screen.getByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith(
      'You need admin privileges to access this page',
      expect.anything(),
    );
    expect(calls).toHaveLength(0);
  });
});
