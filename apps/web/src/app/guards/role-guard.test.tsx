import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { toast } from 'sonner';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { makeUser } from '@/testing/fixtures';
import { RoleGuard } from './role-guard';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const Secret = vi.fn(() => <p>Secret admin data</p>);

describe('RoleGuard', () => {
  it('shows Authentication Required, and not the page, when nobody is signed in', () => {
    renderWithProviders(
      <RoleGuard>
        <Secret />
      </RoleGuard>,
    );
    expect(screen.getByRole('heading', { name: 'Authentication Required' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.queryByText('Secret admin data')).not.toBeInTheDocument();
  });

  it('shows Access Denied with the required and the current role, and never mounts the page', () => {
    Secret.mockClear();
    renderWithProviders(
      <RoleGuard roles={['admin']} deniedToast="You need admin privileges to access this page">
        <Secret />
      </RoleGuard>,
      { auth: fakeAuth(makeUser({ role: 'user' })) },
    );
    expect(screen.getByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
    expect(screen.getByText('Required role').nextElementSibling).toHaveTextContent('Admin');
    expect(screen.getByText('Your role').nextElementSibling).toHaveTextContent('User');
    expect(Secret).not.toHaveBeenCalled();
    expect(toast.error).toHaveBeenCalledWith(
      'You need admin privileges to access this page',
      expect.anything(),
    );
  });

  it('renders the page for an allowed role', () => {
    renderWithProviders(
      <RoleGuard roles={['admin']}>
        <Secret />
      </RoleGuard>,
      { auth: fakeAuth(makeUser({ role: 'admin' })) },
    );
    expect(screen.getByText('Secret admin data')).toBeInTheDocument();
  });

  it('needs only a signed-in user when no roles are given', () => {
    renderWithProviders(
      <RoleGuard>
        <Secret />
      </RoleGuard>,
      { auth: fakeAuth(makeUser({ role: 'user' })) },
    );
    expect(screen.getByText('Secret admin data')).toBeInTheDocument();
  });
});
