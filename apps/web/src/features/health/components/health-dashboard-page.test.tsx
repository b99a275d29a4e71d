import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch, type Routes } from '@/testing/fixtures';
import { makeAlert, makePet } from '@/testing/devices';
import {
  HOT_ADVICE,
  makeActivity,
  makeActivityDay,
  makeActivityDays,
  makeInsights,
} from '@/testing/activity';
import { HealthDashboardPage } from './health-dashboard-page';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const pet = makePet({ name: 'Biscuit' });
const activityCall = (days: number) => `GET /api/dogs/${pet.id}/activity?days=${days}`;
const INSIGHTS = `GET /api/dogs/${pet.id}/insights`;

function Search() {
  return <output data-testid="search">{useLocation().search}</output>;
}

function open(route: string, routes: Routes) {
  const calls = stubFetch({
    'GET /api/dogs': () => jsonResponse(200, { dogs: [pet], total: 1 }),
    'GET /api/alerts?limit=100': () => jsonResponse(200, { alerts: [], total: 0 }),
    [INSIGHTS]: () => jsonResponse(200, makeInsights(pet.id)),
    ...routes,
  });
  renderWithProviders(
    <>
      <HealthDashboardPage dogId={pet.id} />
      <Search />
    </>,
    { route, auth: fakeAuth(makeUser()) },
  );
  return { calls, user: userEvent.setup() };
}

const withActivity = (days: number) => ({
  [activityCall(days)]: () =>
    jsonResponse(200, makeActivity(pet.id, { days: makeActivityDays(days) })),
});

describe("a pet's health dashboard", () => {
  it('opens on 7 days, and moves to 30 and 90 days by buttons kept in the address', async () => {
    const { calls, user } = open(`/pets/${pet.id}/health`, {
      ...withActivity(7),
      ...withActivity(30),
      ...withActivity(90),
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: "Biscuit's health" }),
    ).toBeInTheDocument();
    const range = screen.getByRole('group', { name: 'Range' });
    expect(within(range).getByRole('button', { name: '7 days' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(await screen.findByRole('heading', { name: 'Activity' })).toBeInTheDocument();

    await user.click(within(range).getByRole('button', { name: '30 days' }));
    expect(screen.getByTestId('search')).toHaveTextContent('?days=30');
    expect(within(range).getByRole('button', { name: '30 days' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(
      await screen.findByText(/over the last 30 days \(days in Europe\/London\)/),
    ).toBeInTheDocument();

    // By keyboard: Tab to the next range and press Enter.
    within(range).getByRole('button', { name: '30 days' }).focus();
    await user.tab();
    expect(within(range).getByRole('button', { name: '90 days' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('search')).toHaveTextContent('?days=90');
    expect(await screen.findByText(/over the last 90 days/)).toBeInTheDocument();
    const asked = calls.map((c) => c.url).filter((u) => u.includes('/activity'));
    expect(asked).toEqual([
      `/api/dogs/${pet.id}/activity?days=7`,
      `/api/dogs/${pet.id}/activity?days=30`,
      `/api/dogs/${pet.id}/activity?days=90`,
    ]);
  });

  it('takes the range from the address, and a range it does not offer as 7 days', async () => {
    open(`/pets/${pet.id}/health?days=90`, withActivity(90));
    expect(await screen.findByText(/over the last 90 days/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '90 days' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('treats an unknown range as a week', async () => {
    const { calls } = open(`/pets/${pet.id}/health?days=12`, withActivity(7));
    expect(await screen.findByText(/over the last 7 days/)).toBeInTheDocument();
    expect(calls.some((c) => c.url.endsWith('activity?days=12'))).toBe(false);
  });

  it("shows today's progress, the streak, the heat advice, the walks and the week's insights", async () => {
    const today = makeActivityDay({
      date: '2025-07-01',
      active_minutes: 40,
      walks: [
        {
          start: '2025-07-01T06:30:00.000Z',
          minutes: 25,
          peak_heat_index_c: 24.1,
          peak_level: 'SAFE',
        },
      ],
    });
    open(`/pets/${pet.id}/health`, {
      [activityCall(7)]: () =>
        jsonResponse(
          200,
          makeActivity(pet.id, {
            heat_today: { hot: true, advice: HOT_ADVICE, peak_heat_index_c: 30, level: 'SAFE' },
            days: [...makeActivityDays(7).slice(0, 6), today],
          }),
        ),
    });
    expect(await screen.findByRole('progressbar')).toHaveAttribute(
      'aria-valuetext',
      '40 of 60 min',
    );
    expect(screen.getByText(/Streak: 3 days in a row · best 5/)).toBeInTheDocument();
    expect(screen.getByText(HOT_ADVICE)).toBeInTheDocument();
    expect(screen.getByText('1 walk, newest first.')).toBeInTheDocument();
    expect(screen.getByText(/25 min/)).toBeInTheDocument();
    expect(
      await screen.findByText('Goal met on 4 of 7 days the collar was worn this week.'),
    ).toBeInTheDocument();
    for (const chart of [
      'Activity',
      'Rest and sleep',
      'Resting heart rate',
      'Time at each heat level',
    ])
      expect(screen.getByRole('heading', { level: 2, name: chart })).toBeInTheDocument();
  });

  it('says plainly when the collar sent nothing over the range, without charts', async () => {
    const quiet = makeActivityDays(7).map((d) => ({
      ...d,
      active_minutes: 0,
      vigorous_minutes: 0,
      rest_minutes: 0,
      sleep_minutes: 0,
      worn_minutes: 0,
      resting_heart_rate: null,
      level_minutes: { SAFE: 0, WARNING: 0, DANGER: 0, CRITICAL: 0 },
    }));
    open(`/pets/${pet.id}/health`, {
      [activityCall(7)]: () => jsonResponse(200, makeActivity(pet.id, { days: quiet })),
    });
    expect(await screen.findByRole('heading', { name: 'No activity yet' })).toBeInTheDocument();
    expect(
      screen.getByText(/Biscuit's collar has sent no readings in the last 7 days/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Activity' })).not.toBeInTheDocument();
  });

  it("says when the week's summary cannot be loaded, and loads it again on Try Again", async () => {
    let fail = true;
    const { user } = open(`/pets/${pet.id}/health`, {
      ...withActivity(7),
      [INSIGHTS]: () =>
        fail
          ? jsonResponse(500, { error: 'Something went wrong' })
          : jsonResponse(200, makeInsights(pet.id)),
    });
    expect(
      await screen.findByText("This week's summary could not be loaded", {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText(/against the 4\s+weeks before/)).toBeInTheDocument();
  });

  it("lists the pet's alerts in the range, not another pet's", async () => {
    const recent = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const old = new Date(Date.now() - 20 * 86_400_000).toISOString();
    open(`/pets/${pet.id}/health`, {
      ...withActivity(7),
      'GET /api/alerts?limit=100': () =>
        jsonResponse(200, {
          alerts: [
            makeAlert({ id: 'a1', dog_id: pet.id, level: 'DANGER', opened_at: recent }),
            makeAlert({ id: 'a2', dog_id: 'another-dog', level: 'CRITICAL', opened_at: recent }),
            makeAlert({ id: 'a3', dog_id: pet.id, level: 'WARNING', opened_at: old }),
          ],
          total: 3,
        }),
    });
    expect(await screen.findByText('1 in the last 7 days, newest first.')).toBeInTheDocument();
    expect(screen.getByText('Danger heat alert')).toBeInTheDocument();
    expect(screen.queryByText('Critical heat alert')).not.toBeInTheDocument();
    expect(screen.queryByText('Warning heat alert')).not.toBeInTheDocument();
  });

  it("shows the not-found state for a pet that is not the caller's", async () => {
    open(`/pets/${pet.id}/health`, {
      'GET /api/dogs': () => jsonResponse(200, { dogs: [], total: 0 }),
      [activityCall(7)]: () => jsonResponse(404, { error: 'Pet not found' }),
    });
    expect(await screen.findByRole('heading', { name: 'Pet not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to My Pets' })).toHaveAttribute(
      'href',
      '/my-pets',
    );
    expect(screen.queryByRole('group', { name: 'Range' })).not.toBeInTheDocument();
  });
});
