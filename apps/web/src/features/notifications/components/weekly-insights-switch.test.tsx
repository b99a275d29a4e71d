import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch } from '@/testing/fixtures';
import { UnitsAndTimeCard } from './units-and-time-card';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const SETTING = '/api/notifications/weekly-insights';

describe('Weekly insights by e-mail, in the Units and time card', () => {
  it('is off by default and turns on as it is switched', async () => {
    const calls = stubFetch({
      [`GET ${SETTING}`]: () => jsonResponse(200, { weekly_insights: false }),
      [`PUT ${SETTING}`]: (init) => jsonResponse(200, JSON.parse(String(init.body))),
    });
    renderWithProviders(<UnitsAndTimeCard />, { auth: fakeAuth(makeUser()) });
    const toggle = await screen.findByRole('switch', { name: 'Weekly insights by e-mail' });
    await vi.waitFor(() => expect(toggle).toBeEnabled());
    expect(toggle).toHaveAttribute('aria-checked', 'false');

    await userEvent.setup().click(toggle);
    await vi.waitFor(() => expect(toggle).toHaveAttribute('aria-checked', 'true'));
    const put = calls.find((c) => c.method === 'PUT' && c.url === SETTING);
    expect(JSON.parse(String(put?.init.body))).toEqual({ weekly_insights: true });
    expect(toast.success).toHaveBeenCalledWith('Success', {
      description: 'Weekly insights e-mail turned on',
    });
  });

  it('cannot be switched while the setting is not known', async () => {
    stubFetch({ [`GET ${SETTING}`]: () => jsonResponse(500, { error: 'Internal Server Error' }) });
    renderWithProviders(<UnitsAndTimeCard />, { auth: fakeAuth(makeUser()) });
    expect(
      await screen.findByText('This setting could not be loaded just now.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Weekly insights by e-mail' })).toBeDisabled();
  });
});
