import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import type { Alert } from '@pawguard/shared';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch } from '@/testing/fixtures';
import { makeAlert } from '@/testing/devices';
import { AlertBanner } from './alert-banner';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const NOW = Date.parse('2025-07-01T12:00:00.000Z');
const show = (alert: Alert) =>
  renderWithProviders(<AlertBanner canResolve alert={alert} now={NOW} />, {
    auth: fakeAuth(makeUser()),
  });
const base = (a: Alert) => `/api/devices/${a.device}/alerts/${a.id}`;

describe('resolving or acknowledging a heat alert', () => {
  it('says beside Resolve, and only for Resolve, what resolving while still hot leads to, and after what happens', async () => {
    const alert = makeAlert();
    const calls = stubFetch({
      [`POST ${base(alert)}/resolve`]: () =>
        jsonResponse(200, { alert: { ...alert, resolved: true, resolved_by: 'owner' } }),
    });
    show(alert);
    const resolve = screen.getByRole('button', { name: 'Resolve heat alert for Biscuit' });
    expect(resolve).toHaveAccessibleDescription(
      'If you resolve it while still hot (Warning or above), PawGuard opens a new alert and tells you again.',
    );
    // The text is about Resolve, not a standing warning under Acknowledge as well.
    expect(
      screen.getByRole('button', { name: 'Acknowledge heat alert for Biscuit' }),
    ).not.toHaveAccessibleDescription();
    expect(screen.getByRole('alert')).not.toHaveTextContent(/alert again if it stays/);
    await userEvent.click(resolve);
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('Alert resolved', {
        description:
          'If the next reading is still hot (Warning or above), PawGuard opens a new alert and tells you again.',
      }),
    );
    expect(calls.map((c) => `${c.method} ${c.url}`)).toContain(`POST ${base(alert)}/resolve`);
  });

  it('offers Acknowledge beside Resolve, which keeps the alert open and says what it does', async () => {
    const alert = makeAlert();
    const calls = stubFetch({
      [`POST ${base(alert)}/acknowledge`]: () =>
        jsonResponse(200, { alert: { ...alert, acknowledged_at: new Date(NOW).toISOString() } }),
    });
    show(alert);
    await userEvent.click(
      screen.getByRole('button', { name: 'Acknowledge heat alert for Biscuit' }),
    );
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('Alert acknowledged', {
        description:
          'No repeat alerts while it stays like this. PawGuard keeps watching and tells you if it gets worse.',
      }),
    );
    expect(calls.map((c) => `${c.method} ${c.url}`)).toContain(`POST ${base(alert)}/acknowledge`);
  });

  it('an acknowledged alert says so, keeps Resolve and offers no second Acknowledge', () => {
    show(makeAlert({ acknowledged_at: '2025-07-01T11:58:00.000Z' }));
    const banner = screen.getByRole('alert');
    expect(banner).toHaveTextContent(
      'Acknowledged: no repeat alerts while it stays like this. PawGuard keeps watching and tells you if it gets worse.',
    );
    expect(within(banner).queryByRole('button', { name: /^Acknowledge/ })).toBeNull();
    const resolve = within(banner).getByRole('button', { name: 'Resolve heat alert for Biscuit' });
    expect(resolve).toBeEnabled();
    // Resolving an acknowledged alert while still hot opens a new one all the same.
    expect(resolve).toHaveAccessibleDescription(
      'If you resolve it while still hot (Warning or above), PawGuard opens a new alert and tells you again.',
    );
  });

  it('offers no Acknowledge on other alerts, and Resolve there says nothing about heat', () => {
    show(makeAlert({ type: 'low_battery', level: null, battery_level: 15 }));
    const banner = screen.getByRole('alert');
    expect(
      within(banner)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Resolve']);
    expect(banner).not.toHaveTextContent('Warning or above');
  });
});
