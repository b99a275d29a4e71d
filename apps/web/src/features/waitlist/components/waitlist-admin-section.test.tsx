import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import type { WaitlistEntry } from '@pawguard/shared';
import { authToken } from '@/lib/auth-token';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch, type Routes } from '@/testing/fixtures';
import { WaitlistAdminSection } from './waitlist-admin-section';

const FIRST_PAGE = 'GET /api/admin/waitlist?limit=100&offset=0';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const probe = '<img src=x onerror=alert(1)>';
const entry = (overrides: Partial<WaitlistEntry> = {}): WaitlistEntry => ({
  id: 'entry-1',
  name: 'Riley Owner',
  email: 'riley@example.com',
  phone: '+1 555 0100',
  petName: 'Biscuit',
  petBreed: 'Beagle',
  created_at: '2025-06-01T10:00:00.000Z',
  ...overrides,
});

function setup(routes: Routes) {
  authToken.set('admin-token');
  const calls = stubFetch(routes);
  renderWithProviders(<WaitlistAdminSection />, {
    auth: fakeAuth(makeUser({ role: 'admin' })),
  });
  return { calls, user: userEvent.setup() };
}

describe('WaitlistAdminSection', () => {
  beforeEach(() => vi.mocked(toast.error).mockClear());
  afterEach(() => vi.useRealTimers());

  it('lists every entry as text, markup included', async () => {
    setup({
      [FIRST_PAGE]: () =>
        jsonResponse(200, {
          entries: [entry(), entry({ id: 'entry-2', name: probe, petName: probe })],
          total: 2,
        }),
    });
    await screen.findByText('Riley Owner');
    const rows = within(screen.getByRole('table')).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual([
      'Riley Owner',
      'riley@example.com',
      '+1 555 0100',
      'Biscuit',
      'Beagle',
      expect.stringContaining('2025'),
    ]);
    expect(within(rows[2]!).getAllByText(probe)).toHaveLength(2);
    expect(document.querySelector('img')).toBeNull();
    expect(screen.getByText('2 people have joined the waitlist.')).toBeInTheDocument();
  });

  it('says so when nobody has joined yet', async () => {
    setup({ [FIRST_PAGE]: () => jsonResponse(200, { entries: [], total: 0 }) });
    expect(await screen.findByText('No one has joined the waitlist yet.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  });

  it('offers Try Again when the list cannot be loaded', async () => {
    let fail = true;
    const { user } = setup({
      [FIRST_PAGE]: () =>
        fail
          ? jsonResponse(500, { error: 'Internal server error' })
          : jsonResponse(200, { entries: [entry()], total: 1 }),
    });
    expect(await screen.findByText('The waitlist could not be loaded.')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('Riley Owner')).toBeInTheDocument();
  });

  it('downloads the CSV export with the bearer token', async () => {
    // jsdom has no object URLs.
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:waitlist');
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { calls, user } = setup({
      [FIRST_PAGE]: () => jsonResponse(200, { entries: [entry()], total: 1 }),
      'GET /api/admin/waitlist/export.csv': () =>
        new Response('Name,Email\r\nRiley Owner,riley@example.com\r\n', {
          status: 200,
          headers: { 'Content-Type': 'text/csv' },
        }),
    });
    await screen.findByText('Riley Owner');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));

    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    const exportCall = calls.find((c) => c.url.endsWith('/export.csv'))!;
    expect((exportCall.init.headers as Record<string, string>).Authorization).toBe(
      'Bearer admin-token',
    );
    expect(await createObjectURL.mock.calls[0]![0].text()).toContain(
      'Riley Owner,riley@example.com',
    );
    const link = click.mock.instances[0] as unknown as HTMLAnchorElement;
    expect(link.download).toBe('pawguard-waitlist.csv');
    expect(link.href).toBe('blob:waitlist');
  });

  it('reports a failed export', async () => {
    const { user } = setup({
      [FIRST_PAGE]: () => jsonResponse(200, { entries: [entry()], total: 1 }),
      'GET /api/admin/waitlist/export.csv': () =>
        jsonResponse(403, { error: 'Admin access required' }),
    });
    await screen.findByText('Riley Owner');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Failed to export waitlist', {
        id: 'export-waitlist',
        description: 'Admin access required',
      }),
    );
  });

  it('pages a long waitlist 100 at a time', async () => {
    const page = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        entry({ id: `e-${n}-${i}`, name: `Person ${n}-${i}`, email: `p${n}-${i}@example.com` }),
      );
    const { user } = setup({
      [FIRST_PAGE]: () => jsonResponse(200, { entries: page(100), total: 130 }),
      'GET /api/admin/waitlist?limit=100&offset=100': () =>
        jsonResponse(200, { entries: page(30), total: 130 }),
    });
    await screen.findByText('Person 100-0');
    expect(screen.getByText('130 people have joined the waitlist.')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Person 30-0');
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
    expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(31);
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });
});
