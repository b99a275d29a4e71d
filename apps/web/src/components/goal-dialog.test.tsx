import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch } from '@/testing/fixtures';
import { makeActivity } from '@/testing/activity';
import { GoalDialog, parseGoalMinutes } from './goal-dialog';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const DOG = '00000000-0000-4000-8000-00000000d0g2';
const PUT_GOAL = `PUT /api/dogs/${DOG}/goal`;
const { goal } = makeActivity(DOG, {
  goal: {
    active_minutes: 60,
    source: 'suggested',
    suggested_minutes: 60,
    reasons: ['Beagle: a hound, 60 minutes a day (breed group)', 'Age 9: a senior, × 0.75'],
  },
});

function open(routes: Parameters<typeof stubFetch>[0] = {}) {
  const calls = stubFetch(routes);
  const onOpenChange = vi.fn();
  renderWithProviders(
    <GoalDialog dogId={DOG} dogName="Biscuit" goal={goal} open onOpenChange={onOpenChange} />,
    { auth: fakeAuth(makeUser()) },
  );
  return { calls, onOpenChange, user: userEvent.setup() };
}

const bodyOf = (calls: ReturnType<typeof stubFetch>) =>
  JSON.parse(String(calls.find((c) => `${c.method} ${c.url}` === PUT_GOAL)?.init.body));

describe('parseGoalMinutes', () => {
  it.each([
    ['5', { minutes: 5 }],
    [' 300 ', { minutes: 300 }],
    ['4', { error: 'Enter a whole number of minutes from 5 to 300' }],
    ['301', { error: 'Enter a whole number of minutes from 5 to 300' }],
    ['', { error: 'Enter a whole number of minutes from 5 to 300' }],
    ['45.5', { error: 'Enter a whole number of minutes from 5 to 300' }],
  ])('reads %j as %j', (text, expected) => {
    expect(parseGoalMinutes(text)).toEqual(expected);
  });
});

describe('the goal dialog', () => {
  it('shows the suggestion with each of its reasons', () => {
    open();
    expect(screen.getByText(/PawGuard suggests 60 min a day/)).toBeInTheDocument();
    expect(screen.getByText('Age 9: a senior, × 0.75')).toBeInTheDocument();
    expect(screen.getByLabelText('Minutes a day')).toHaveValue(60);
  });

  it('refuses a number outside 5–300 without calling the API', async () => {
    const { calls, user } = open();
    const input = screen.getByLabelText('Minutes a day');
    await user.clear(input);
    await user.type(input, '301');
    await user.click(screen.getByRole('button', { name: 'Save goal' }));
    expect(screen.getByText('Enter a whole number of minutes from 5 to 300')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    await user.clear(input);
    await user.type(input, '4');
    await user.click(screen.getByRole('button', { name: 'Save goal' }));
    expect(screen.getByText('Enter a whole number of minutes from 5 to 300')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('saves the minutes typed, says so and closes', async () => {
    const { calls, onOpenChange, user } = open({
      [PUT_GOAL]: () =>
        jsonResponse(200, { goal: { ...goal, active_minutes: 45, source: 'owner' } }),
    });
    const input = screen.getByLabelText('Minutes a day');
    await user.clear(input);
    await user.type(input, '45');
    await user.click(screen.getByRole('button', { name: 'Save goal' }));
    await vi.waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(bodyOf(calls)).toEqual({ active_minutes: 45 });
    expect(toast.success).toHaveBeenCalledWith('Goal saved', {
      description: "Biscuit's goal: 45 min a day",
    });
  });

  it('goes back to the suggestion by sending null', async () => {
    const { calls, onOpenChange, user } = open({
      [PUT_GOAL]: () => jsonResponse(200, { goal }),
    });
    await user.click(screen.getByRole('button', { name: 'Use the suggestion' }));
    await vi.waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(bodyOf(calls)).toEqual({ active_minutes: null });
  });

  it("shows the API's own error and stays open", async () => {
    const { onOpenChange, user } = open({
      [PUT_GOAL]: () => jsonResponse(403, { error: 'Only the pet’s owner sets its goal' }),
    });
    await user.click(screen.getByRole('button', { name: 'Save goal' }));
    expect(await screen.findByText('Only the pet’s owner sets its goal')).toBeInTheDocument();
    expect(onOpenChange).not.toHaveBeenCalled();
  });
});
