import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch } from '@/testing/fixtures';
import { makeDevice, makePet } from '@/testing/devices';
import { HOT_ADVICE, makeActivity, makeInsights } from '@/testing/activity';
import { DogHomeCards } from './dog-home-cards';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

describe("the dashboard's dog cards", () => {
  it('show the day against the goal for a dog with a collar, and nothing of it without one', async () => {
    const rex = makePet({ name: 'Rex' });
    const bella = makePet({ name: 'Bella' });
    const collar = makeDevice({
      dog_id: rex.id,
      dog_name: 'Rex',
      vitals_status: 'SAFE',
      vitals_recorded_at: new Date().toISOString(),
    });
    const calls = stubFetch({
      'GET /api/dogs': () => jsonResponse(200, { dogs: [rex, bella], total: 2 }),
      'GET /api/devices': () => jsonResponse(200, { devices: [collar], total: 1 }),
      'GET /api/alerts?resolved=false&limit=100': () => jsonResponse(200, { alerts: [], total: 0 }),
      [`GET /api/dogs/${rex.id}/activity?days=7`]: () =>
        jsonResponse(
          200,
          makeActivity(rex.id, {
            heat_today: { hot: true, advice: HOT_ADVICE, peak_heat_index_c: 29, level: 'SAFE' },
          }),
        ),
      [`GET /api/dogs/${rex.id}/insights`]: () => jsonResponse(200, makeInsights(rex.id)),
    });
    renderWithProviders(<DogHomeCards />, { auth: fakeAuth(makeUser()) });
    const rexCard = (await screen.findByRole('link', { name: 'Rex' })).closest('article')!;
    expect(
      await within(rexCard).findByRole('progressbar', { name: "Rex's activity today" }),
    ).toHaveAttribute('aria-valuenow', '25');
    expect(within(rexCard).getByText(HOT_ADVICE)).toBeInTheDocument();
    expect(within(rexCard).getByRole('button', { name: 'Edit goal for Rex' })).toBeInTheDocument();

    const bellaCard = screen.getByRole('link', { name: 'Bella' }).closest('article')!;
    expect(within(bellaCard).queryByRole('progressbar')).not.toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith(`/api/dogs/${bella.id}/`))).toBe(false);
  });
});
