import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Notification } from '@pawguard/shared';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch } from '@/testing/fixtures';
import { FakeEventSource, openFakeStream } from '@/testing/fake-event-source';
import { NotificationBell } from './notification-bell';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const DEVICE = '10000000-0000-4000-8000-000000000001';
let n = 0;
function note(over: Partial<Notification> = {}): Notification {
  n++;
  return {
    id: `20000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    kind: 'opened',
    alert_id: `30000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    alert_type: 'heat',
    level: 'CRITICAL',
    device: DEVICE,
    device_id: 'PET-AB12',
    dog_name: 'Rex',
    title: `Rex: Critical heat alert ${n}`,
    message: "Rex's collar (PET-AB12) reads 41.0°C / 105.8°F at 40% humidity.",
    read: false,
    created_at: new Date().toISOString(),
    acknowledged_at: null,
    acknowledged_by_name: null,
    ...over,
  };
}

let stop: (() => void) | null = null;
afterEach(() => {
  stop?.();
  stop = null;
  FakeEventSource.reset();
});

function setup(list: Notification[], unread = list.filter((x) => !x.read).length) {
  const calls = stubFetch({
    'GET /api/notifications/unread-count': () => jsonResponse(200, { count: unread }),
    'GET /api/notifications?limit=20': () => jsonResponse(200, { notifications: list }),
    [`PUT /api/notifications/${list[0]?.id}/read`]: () =>
      jsonResponse(200, { notification: { ...list[0]!, read: true } }),
    'PUT /api/notifications/mark-all-read': () => jsonResponse(200, { success: true }),
  });
  const r = renderWithProviders(<NotificationBell />, { auth: fakeAuth(makeUser()) });
  return { calls, user: userEvent.setup(), ...r };
}

describe('the notification bell', () => {
  it('shows the unread count and lists the latest, each linking to its collar', async () => {
    const list = [
      note(),
      note({ read: true, title: 'Rex: collar offline', alert_type: 'offline' }),
    ];
    const { user } = setup(list);
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    await user.click(bell);
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    const first = await within(dialog).findByRole('link', { name: /Critical heat alert/ });
    expect(first).toHaveAttribute('href', `/devices/${DEVICE}/history`);
    expect(within(dialog).getByRole('link', { name: 'Rex: collar offline' })).toBeInTheDocument();
    expect(within(dialog).getAllByRole('listitem')[0]).toHaveAttribute('data-read', 'false');
    // Escape closes and gives focus back to the bell.
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bell).toHaveFocus();
  });

  it('marks one read and all read, and the count follows', async () => {
    const list = [note(), note()];
    const { user, calls } = setup(list);
    await user.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(
      await within(dialog).findByRole('button', { name: `Mark read: ${list[0]!.title}` }),
    );
    // The sheet is modal: what is behind it (the bell) is hidden from the accessibility tree.
    await waitFor(() => expect(within(dialog).getByText('1 unread')).toBeInTheDocument());
    expect(
      screen.getByRole('button', { name: 'Notifications, 1 unread', hidden: true }),
    ).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT' && c.url.endsWith(`${list[0]!.id}/read`))).toBe(
      true,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Mark all read' }));
    await waitFor(() =>
      expect(within(dialog).getByText('You are all caught up.')).toBeInTheDocument(),
    );
    expect(within(dialog).queryAllByRole('button', { name: /^Mark read/ })).toHaveLength(0);
  });

  it('counts a notification from the live stream at once', async () => {
    const { queryClient } = setup([], 0);
    await screen.findByRole('button', { name: 'Notifications, none unread' });
    stop = await openFakeStream(queryClient);
    await act(async () => {
      await new Promise((r) => setTimeout(r, 20));
    });
    act(() => FakeEventSource.latest.emit('notification', { notification: note() }));
    expect(
      await screen.findByRole('button', { name: 'Notifications, 1 unread' }),
    ).toBeInTheDocument();
  });

  it('marks an alert sent again because nobody acknowledged it, and only that one', async () => {
    const again = note({
      kind: 'unacknowledged',
      title: 'Rex: Critical heat alert not yet acknowledged',
      message: 'Nobody has acknowledged this alert yet. Rex is at 41.0°C / 105.8°F.',
    });
    const { user } = setup([again, note({ kind: 'escalated' })]);
    await user.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    const [first, second] = await within(dialog).findAllByRole('listitem');
    expect(within(first!).getByText('Not yet acknowledged')).toBeInTheDocument();
    expect(within(first!).getByRole('link', { name: /not yet acknowledged$/ })).toHaveAttribute(
      'href',
      `/devices/${DEVICE}/history`,
    );
    expect(within(second!).queryByText('Not yet acknowledged')).toBeNull();
  });

  it('says who acknowledged an alert and when, and drops "not yet acknowledged" once someone has', async () => {
    const at = new Date(Date.now() - 60_000).toISOString();
    const again = note({
      kind: 'unacknowledged',
      title: 'Rex: Critical heat alert not yet acknowledged',
      acknowledged_at: at,
      acknowledged_by_name: 'Sam Sitter',
    });
    const { user } = setup([again]);
    await user.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    const [item] = await within(dialog).findAllByRole('listitem');
    expect(within(item!).queryByText('Not yet acknowledged')).toBeNull();
    expect(within(item!).getByTestId('alert-acknowledgement')).toHaveTextContent(
      /^Acknowledged by Sam Sitter at .+\(1m ago\)$/,
    );
  });

  it('says when there is nothing yet', async () => {
    const { user } = setup([], 0);
    await user.click(await screen.findByRole('button', { name: 'Notifications, none unread' }));
    expect(await screen.findByText(/No notifications yet/)).toBeInTheDocument();
  });
});
