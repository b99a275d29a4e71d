import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import type { Dog } from '@pawguard/shared';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch, type Routes } from '@/testing/fixtures';
import { makePet } from '@/testing/devices';
import { EscalationCard } from './escalation-card';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const escalationOf = (pet: Dog) => `/api/dogs/${pet.id}/escalation`;

function setup(pets: Dog[], routes: Routes = {}) {
  const calls = stubFetch({
    'GET /api/dogs': () => jsonResponse(200, { dogs: pets, total: pets.length }),
    ...routes,
  });
  renderWithProviders(<EscalationCard />, { auth: fakeAuth(makeUser()) });
  return { calls, user: userEvent.setup() };
}

const card = () => within(screen.getByRole('region', { name: 'If nobody acknowledges' }));
const petGroup = async (name: string) => within(await card().findByRole('group', { name }));
const selectedText = (select: HTMLElement) =>
  (select as HTMLSelectElement).selectedOptions[0]?.textContent;

describe('If nobody acknowledges', () => {
  it('says what it is for and shows each pet’s minutes, its stored ones among the choices', async () => {
    const biscuit = makePet({ name: 'Biscuit' });
    const rex = makePet({ name: 'Rex' });
    setup([biscuit, rex], {
      [`GET ${escalationOf(biscuit)}`]: () =>
        jsonResponse(200, { escalation: { danger_minutes: 15, critical_minutes: 5 } }),
      // Set through the API to minutes the lists do not offer.
      [`GET ${escalationOf(rex)}`]: () =>
        jsonResponse(200, { escalation: { danger_minutes: 45, critical_minutes: 7 } }),
    });
    expect(
      card().getByText(
        'A Danger or Critical heat alert that nobody acknowledges is sent again to you, marked “not yet acknowledged”.',
      ),
    ).toBeInTheDocument();

    const b = await petGroup('Biscuit');
    const danger = b.getByLabelText('Danger: send again after');
    await waitFor(() => expect(danger).toBeEnabled());
    expect(selectedText(danger)).toBe('15 minutes (default)');
    expect(selectedText(b.getByLabelText('Critical: send again after'))).toBe(
      '5 minutes (default)',
    );
    expect(
      within(danger)
        .getAllByRole('option')
        .map((o) => o.getAttribute('value')),
    ).toEqual(['5', '10', '15', '30', '60']);
    expect(
      within(b.getByLabelText('Critical: send again after'))
        .getAllByRole('option')
        .map((o) => o.getAttribute('value')),
    ).toEqual(['1', '2', '3', '5', '10', '15']);

    const r = await petGroup('Rex');
    await waitFor(() => expect(r.getByLabelText('Danger: send again after')).toBeEnabled());
    expect(selectedText(r.getByLabelText('Danger: send again after'))).toBe('45 minutes');
    expect(selectedText(r.getByLabelText('Critical: send again after'))).toBe('7 minutes');
  });

  it('saves one pet’s minutes on their own', async () => {
    const biscuit = makePet({ name: 'Biscuit' });
    const rex = makePet({ name: 'Rex' });
    const stored = { danger_minutes: 15, critical_minutes: 5 };
    const { calls, user } = setup([biscuit, rex], {
      [`GET ${escalationOf(biscuit)}`]: () => jsonResponse(200, { escalation: stored }),
      [`GET ${escalationOf(rex)}`]: () => jsonResponse(200, { escalation: stored }),
      [`PUT ${escalationOf(rex)}`]: (init) =>
        jsonResponse(200, { escalation: JSON.parse(String(init.body)) }),
    });
    const r = await petGroup('Rex');
    const critical = r.getByLabelText('Critical: send again after');
    await waitFor(() => expect(critical).toBeEnabled());
    await user.selectOptions(critical, '2');
    await user.selectOptions(r.getByLabelText('Danger: send again after'), '30');
    await user.click(card().getByRole('button', { name: 'Save for Rex' }));

    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('Escalation saved', { description: 'For Rex.' }),
    );
    const puts = calls.filter((c) => c.method === 'PUT');
    expect(puts.map((c) => c.url)).toEqual([escalationOf(rex)]);
    expect(JSON.parse(String(puts[0]!.init.body))).toEqual({
      danger_minutes: 30,
      critical_minutes: 2,
    });
    expect(selectedText(critical)).toBe('2 minutes');
  });

  it('says why a save failed, in the server’s words, and keeps the choice', async () => {
    const biscuit = makePet({ name: 'Biscuit' });
    const { user } = setup([biscuit], {
      [`GET ${escalationOf(biscuit)}`]: () =>
        jsonResponse(200, { escalation: { danger_minutes: 15, critical_minutes: 5 } }),
      [`PUT ${escalationOf(biscuit)}`]: () => jsonResponse(404, { error: 'Pet not found' }),
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const b = await petGroup('Biscuit');
    const danger = b.getByLabelText('Danger: send again after');
    await waitFor(() => expect(danger).toBeEnabled());
    await user.selectOptions(danger, '60');
    await user.click(card().getByRole('button', { name: 'Save for Biscuit' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Failed to save escalation', {
        description: 'Pet not found',
      }),
    );
    expect(selectedText(danger)).toBe('60 minutes');
  });

  it('cannot save a pet whose minutes did not load, and offers to try again', async () => {
    const biscuit = makePet({ name: 'Biscuit' });
    let fail = true;
    const { user } = setup([biscuit], {
      [`GET ${escalationOf(biscuit)}`]: () =>
        fail
          ? jsonResponse(500, { error: 'Internal Server Error' })
          : jsonResponse(200, { escalation: { danger_minutes: 10, critical_minutes: 3 } }),
    });
    const b = await petGroup('Biscuit');
    expect(await b.findByText('Biscuit’s settings could not be loaded just now.')).toBeVisible();
    expect(b.getByLabelText('Danger: send again after')).toBeDisabled();
    expect(card().getByRole('button', { name: 'Save for Biscuit' })).toBeDisabled();
    fail = false;
    await user.click(b.getByRole('button', { name: 'Try Again' }));
    await waitFor(() => expect(b.getByLabelText('Danger: send again after')).toBeEnabled());
    expect(selectedText(b.getByLabelText('Danger: send again after'))).toBe('10 minutes');
  });

  it('shows a caregiver a shared pet’s minutes, which only its owner or a co-owner changes', async () => {
    const shared = makePet({ name: 'Luna', access: 'caregiver', owner_name: 'Sam Owner' });
    const { calls } = setup([shared], {
      [`GET ${escalationOf(shared)}`]: () =>
        jsonResponse(200, { escalation: { danger_minutes: 30, critical_minutes: 3 } }),
    });
    const luna = await petGroup('Luna');
    expect(luna.getByText('Shared by Sam Owner · Caregiver')).toBeInTheDocument();
    await waitFor(() =>
      expect(selectedText(luna.getByLabelText('Danger: send again after'))).toBe('30 minutes'),
    );
    expect(luna.getByLabelText('Danger: send again after')).toBeDisabled();
    expect(luna.getByLabelText('Critical: send again after')).toHaveAccessibleDescription(
      /only its owner or a co-owner can change/,
    );
    expect(card().queryByRole('button', { name: /^Save for/ })).toBeNull();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
  });

  it('asks for a pet first when there is none', async () => {
    setup([]);
    expect(await card().findByText(/No pets yet\./)).toBeInTheDocument();
    expect(card().getByRole('link', { name: 'Add a pet' })).toHaveAttribute(
      'href',
      '/my-pets?add=pet',
    );
    expect(card().queryByRole('combobox')).toBeNull();
  });
});
