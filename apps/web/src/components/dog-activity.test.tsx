import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch } from '@/testing/fixtures';
import {
  HOT_ADVICE,
  NOT_A_DIAGNOSIS,
  makeActivity,
  makeActivityDays,
  makeFlag,
  makeInsights,
} from '@/testing/activity';
import { DogActivity } from './dog-activity';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const DOG = '00000000-0000-4000-8000-00000000d0g1';
const ACTIVITY = `GET /api/dogs/${DOG}/activity?days=7`;
const INSIGHTS = `GET /api/dogs/${DOG}/insights`;

function show(routes: Parameters<typeof stubFetch>[0], aboveSafe = false) {
  const calls = stubFetch(routes);
  renderWithProviders(<DogActivity dogId={DOG} dogName="Biscuit" aboveSafe={aboveSafe} />, {
    auth: fakeAuth(makeUser()),
  });
  return calls;
}

describe("the dog card's activity", () => {
  it("shows today's minutes against the goal as a progress bar, and the streak", async () => {
    show({
      [ACTIVITY]: () => jsonResponse(200, makeActivity(DOG)),
      [INSIGHTS]: () => jsonResponse(200, makeInsights(DOG)),
    });
    const bar = await screen.findByRole('progressbar', { name: "Biscuit's activity today" });
    expect(bar).toHaveAttribute('aria-valuenow', '25');
    expect(bar).toHaveAttribute('aria-valuemin', '0');
    expect(bar).toHaveAttribute('aria-valuemax', '60');
    expect(bar).toHaveAttribute('aria-valuetext', '25 of 60 min');
    expect(screen.getByText('25 of 60 min')).toBeInTheDocument();
    expect(screen.getByText(/3 days in a row · best 5/)).toBeInTheDocument();
    expect(screen.queryByText(HOT_ADVICE)).not.toBeInTheDocument();
  });

  it('says the goal is met once the minutes reach it, the bar full', async () => {
    show({
      [ACTIVITY]: () =>
        jsonResponse(
          200,
          makeActivity(DOG, {
            days: makeActivityDays(7, { active_minutes: 75, goal_minutes: 60, met: true }),
          }),
        ),
      [INSIGHTS]: () => jsonResponse(200, makeInsights(DOG)),
    });
    const bar = await screen.findByRole('progressbar');
    expect(bar).toHaveAttribute('aria-valuenow', '60');
    expect(bar).toHaveAttribute('aria-valuetext', '75 of 60 min, goal met');
    expect(screen.getByText('Goal met')).toBeInTheDocument();
  });

  it("gives the heat advice word for word on a hot day, and the minutes above Safe that don't count", async () => {
    show({
      [ACTIVITY]: () =>
        jsonResponse(
          200,
          makeActivity(DOG, {
            heat_today: {
              hot: true,
              advice: HOT_ADVICE,
              peak_heat_index_c: 31.4,
              level: 'WARNING',
            },
            days: makeActivityDays(7, { heat_minutes: 12 }),
          }),
        ),
      [INSIGHTS]: () => jsonResponse(200, makeInsights(DOG)),
    });
    expect(await screen.findByText(HOT_ADVICE)).toBeInTheDocument();
    expect(screen.getByText(/12 min above Safe not counted/)).toBeInTheDocument();
  });

  it("sums up the week, a line for each insight, activity first, with a link to the pet's health dashboard", async () => {
    show({
      [ACTIVITY]: () => jsonResponse(200, makeActivity(DOG)),
      [INSIGHTS]: () => jsonResponse(200, makeInsights(DOG)),
    });
    await screen.findByText(/Biscuit averaged 42 active minutes/);
    const lines = document.querySelectorAll('[data-week-line]');
    expect([...lines].map((p) => p.textContent)).toEqual([
      'Biscuit averaged 42 active minutes a day this week, against 55 over the 4 weeks before (-24 %).',
      'Goal met on 4 of 7 days the collar was worn this week.',
    ]);
    expect(screen.getByRole('link', { name: 'Health dashboard of Biscuit' })).toHaveAttribute(
      'href',
      `/pets/${DOG}/health`,
    );
  });

  it('flags a change gently, with its evidence and the not-a-diagnosis note', async () => {
    show({
      [ACTIVITY]: () => jsonResponse(200, makeActivity(DOG)),
      [INSIGHTS]: () => jsonResponse(200, makeInsights(DOG, { flags: [makeFlag()] })),
    });
    const text = await screen.findByText(/activity has been at least 35 % below/);
    const flag = text.closest('[data-flag]') as HTMLElement;
    expect(flag).toHaveAttribute('data-flag', 'activity_down');
    expect(within(flag).getByText('baseline minutes:')).toBeInTheDocument();
    expect(within(flag).getByText('55')).toBeInTheDocument();
    expect(within(flag).getByText(NOT_A_DIAGNOSIS)).toBeInTheDocument();
    // Gently: not announced as an alert.
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('opens the goal dialog from the card, with the suggestion', async () => {
    show({
      [ACTIVITY]: () => jsonResponse(200, makeActivity(DOG)),
      [INSIGHTS]: () => jsonResponse(200, makeInsights(DOG)),
    });
    await userEvent
      .setup()
      .click(await screen.findByRole('button', { name: 'Edit goal for Biscuit' }));
    const dialog = await screen.findByRole(
      'dialog',
      { name: 'Daily activity goal' },
      // The dialog's code loads when it is first opened.
      { timeout: 5000 },
    );
    expect(within(dialog).getByText(/PawGuard suggests 60 min a day/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Use the suggestion' })).toBeInTheDocument();
  });

  it('leaves the card as it was when the activity cannot be loaded', async () => {
    const calls = show({
      [ACTIVITY]: () => jsonResponse(500, { error: 'Internal Server Error' }),
    });
    await vi.waitFor(() => expect(calls.some((c) => c.url.includes('/activity'))).toBe(true));
    await vi.waitFor(() => expect(document.querySelector('[data-activity]')).toBeEmptyDOMElement());
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    // Insights are asked for only once the activity came.
    expect(calls.some((c) => c.url.includes('/insights'))).toBe(false);
  });

  describe('the week’s heat beside the level shown', () => {
    const heat = (warning: number, danger: number, critical: number) => ({
      kind: 'heat' as const,
      text:
        warning + danger + critical === 0
          ? 'Biscuit spent no time above Safe this week.'
          : `Biscuit spent ${warning + danger + critical} minutes above Safe this week: ${warning} at Warning, ${danger} at Danger, ${critical} at Critical.`,
      numbers: {
        safe_minutes: 5_000,
        warning_minutes: warning,
        danger_minutes: danger,
        critical_minutes: critical,
      },
    });
    const withHeat = (line: ReturnType<typeof heat>) => {
      const insights = makeInsights(DOG);
      return { ...insights, insights: [...insights.insights, line] };
    };
    const weekLines = () =>
      [...document.querySelectorAll('[data-week-line]')].map((p) => p.textContent);

    it('says no time above Safe while the card shows the dog Safe, under the week’s dates', async () => {
      show({
        [ACTIVITY]: () => jsonResponse(200, makeActivity(DOG)),
        [INSIGHTS]: () => jsonResponse(200, withHeat(heat(0, 0, 0))),
      });
      expect(await screen.findByText('Biscuit spent no time above Safe this week.')).toBeVisible();
      // The week is the 7 whole days before today: its dates say so.
      expect(document.querySelector('[data-week-span]')).toHaveTextContent(/Jun 24.*Jun 30/);
    });

    it('leaves out "no time above Safe" while the card shows the dog above Safe', async () => {
      show(
        {
          [ACTIVITY]: () => jsonResponse(200, makeActivity(DOG)),
          [INSIGHTS]: () => jsonResponse(200, withHeat(heat(0, 0, 0))),
        },
        true,
      );
      await screen.findByText(/Biscuit averaged 42 active minutes/);
      expect(screen.queryByText(/no time above Safe/)).not.toBeInTheDocument();
      expect(weekLines()).toHaveLength(2);
    });

    it('keeps a week with time above Safe beside a raised level: the two agree', async () => {
      show(
        {
          [ACTIVITY]: () => jsonResponse(200, makeActivity(DOG)),
          [INSIGHTS]: () => jsonResponse(200, withHeat(heat(30, 10, 0))),
        },
        true,
      );
      expect(
        await screen.findByText(
          'Biscuit spent 40 minutes above Safe this week: 30 at Warning, 10 at Danger, 0 at Critical.',
        ),
      ).toBeInTheDocument();
    });
  });
});
