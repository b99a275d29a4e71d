import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { makeUser } from '@/testing/fixtures';
import { makeHistory } from '@/testing/devices';
import { HistoryTable } from './history-table';
import { browserTimeZone } from '@/lib/auth/time-zone';

// A zone other than the test machine's, with a half-hour offset no default zone shares.
const ZONE = browserTimeZone() === 'Asia/Kolkata' ? 'Asia/Kathmandu' : 'Asia/Kolkata';
const WALL = ZONE === 'Asia/Kolkata' ? /12:30/ : /12:45/;

describe('HistoryTable', () => {
  it("shows each period's time in the account's time zone, not the browser's", async () => {
    const history = makeHistory('1h', [{ t: '2025-07-01T07:00:00.000Z', temperature: 30 }]);
    renderWithProviders(<HistoryTable history={history} />, {
      auth: fakeAuth(makeUser({ time_zone: ZONE })),
    });
    await userEvent.click(screen.getByRole('button', { name: 'Show as table' }));
    const cell = screen.getAllByRole('cell')[0]!;
    expect(cell.textContent).toMatch(WALL);
  });
});
