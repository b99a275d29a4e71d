import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FailedMail } from '@pawguard/shared';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch } from '@/testing/fixtures';
import { UndeliveredMailCard } from './undelivered-mail-card';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const asAdmin = { auth: fakeAuth(makeUser({ role: 'admin' })) };

const refused: FailedMail = {
  id: 'm1',
  recipient: 'gone@example.com',
  subject: 'Rex is in danger',
  kind: 'alert',
  created_at: '2026-07-01T10:00:00.000Z',
  failed_at: '2026-07-01T10:00:05.000Z',
  attempts: 1,
  reason: '550 5.1.1 <gone@example.com>: user unknown',
};

describe("the Admin Portal's undelivered mail", () => {
  it('says there is no undelivered mail when none was given up', async () => {
    stubFetch({
      'GET /api/admin/mail/failed': () => jsonResponse(200, { mails: [], total: 0 }),
    });
    renderWithProviders(<UndeliveredMailCard />, asAdmin);
    expect(screen.getByRole('status', { name: 'Loading undelivered mail' })).toBeInTheDocument();
    expect(await screen.findByText('No undelivered mail')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('lists a given-up mail with its recipient, subject, the mail server’s answer and the count', async () => {
    stubFetch({
      'GET /api/admin/mail/failed': () => jsonResponse(200, { mails: [refused], total: 1 }),
    });
    renderWithProviders(<UndeliveredMailCard />, asAdmin);
    const table = await screen.findByRole('table');
    const [, row] = within(table).getAllByRole('row');
    expect(within(row!).getByText('gone@example.com')).toBeInTheDocument();
    expect(within(row!).getByText('Rex is in danger')).toBeInTheDocument();
    expect(within(row!).getByText('Alert · 1 attempt')).toBeInTheDocument();
    expect(
      within(row!).getByText('550 5.1.1 <gone@example.com>: user unknown'),
    ).toBeInTheDocument();
    expect(screen.getByText('1 mail given up.')).toBeInTheDocument();
    // The table scrolls by keyboard where it is wider than the screen.
    expect(screen.getByRole('region', { name: 'Undelivered mail' })).toHaveAttribute(
      'tabindex',
      '0',
    );
  });

  it('says when only the most recent are shown', async () => {
    stubFetch({
      'GET /api/admin/mail/failed': () =>
        jsonResponse(200, { mails: [refused, { ...refused, id: 'm2' }], total: 120 }),
    });
    renderWithProviders(<UndeliveredMailCard />, asAdmin);
    expect(
      await screen.findByText('120 mails given up; the 2 most recent are shown.'),
    ).toBeInTheDocument();
  });

  it('sends a given-up mail again once the admin confirms, and lists it no more', async () => {
    let given: FailedMail[] = [refused];
    const calls = stubFetch({
      'GET /api/admin/mail/failed': () => jsonResponse(200, { mails: given, total: given.length }),
      'POST /api/admin/mail/m1/retry': () => {
        given = [];
        return jsonResponse(200, { id: 'm1', status: 'pending' });
      },
    });
    renderWithProviders(<UndeliveredMailCard />, asAdmin);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Send the mail to gone@example.com again' }),
    );
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await userEvent.click(await screen.findByRole('button', { name: 'Send Again' }));
    expect(await screen.findByText('No undelivered mail')).toBeInTheDocument();
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual([
        '/api/admin/mail/m1/retry',
      ]),
    );
  });
});
