import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch } from '@/testing/fixtures';
import { makeAlert, makeDevice, makePet } from '@/testing/devices';
import { makeActivity } from '@/testing/activity';
import { MyPetsPage } from './my-pets-page';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

describe('the pet card quick actions', () => {
  it("take View Activity and Health Report to the pet's health dashboard", async () => {
    const pet = makePet({ name: 'Biscuit' });
    const collar = makeDevice({ dog_id: pet.id, vitals_recorded_at: '2025-07-01T11:00:00.000Z' });
    stubFetch({
      'GET /api/dogs': () => jsonResponse(200, { dogs: [pet], total: 1 }),
      'GET /api/devices': () => jsonResponse(200, { devices: [collar], total: 1 }),
    });
    renderWithProviders(<MyPetsPage />, { auth: fakeAuth(makeUser()) });
    const health = `/pets/${pet.id}/health`;
    expect(await screen.findByRole('link', { name: 'View Activity' })).toHaveAttribute(
      'href',
      health,
    );
    expect(screen.getByRole('link', { name: 'Health Report' })).toHaveAttribute('href', health);
    expect(screen.getByRole('link', { name: 'Check Temperature' })).toHaveAttribute(
      'href',
      '/monitoring',
    );
  });

  it('take them there while the pet has no collar too, and the card shows no activity', async () => {
    const pet = makePet();
    const calls = stubFetch({
      'GET /api/dogs': () => jsonResponse(200, { dogs: [pet], total: 1 }),
      'GET /api/devices': () => jsonResponse(200, { devices: [], total: 0 }),
    });
    renderWithProviders(<MyPetsPage />, { auth: fakeAuth(makeUser()) });
    expect(await screen.findByRole('link', { name: 'View Activity' })).toHaveAttribute(
      'href',
      `/pets/${pet.id}/health`,
    );
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(calls.some((c) => c.url.includes('/activity'))).toBe(false);
  });

  it("shows the pet's activity today on its card when it wears a collar", async () => {
    const pet = makePet({ name: 'Biscuit' });
    const collar = makeDevice({ dog_id: pet.id, vitals_recorded_at: '2025-07-01T11:00:00.000Z' });
    stubFetch({
      'GET /api/dogs': () => jsonResponse(200, { dogs: [pet], total: 1 }),
      'GET /api/devices': () => jsonResponse(200, { devices: [collar], total: 1 }),
      [`GET /api/dogs/${pet.id}/activity?days=7`]: () => jsonResponse(200, makeActivity(pet.id)),
    });
    renderWithProviders(<MyPetsPage />, { auth: fakeAuth(makeUser()) });
    expect(
      await screen.findByRole('progressbar', { name: "Biscuit's activity today" }),
    ).toHaveAttribute('aria-valuetext', '25 of 60 min');
  });
});

describe('an open alert on My Pets', () => {
  it("shows beside the pet's badge, and on its card with what to do and Resolve", async () => {
    const pet = makePet({ name: 'Biscuit' });
    const collar = makeDevice({
      dog_id: pet.id,
      vitals_status: 'CRITICAL',
      vitals_recorded_at: new Date().toISOString(),
    });
    const alert = makeAlert(
      {
        id: '20000000-0000-4000-8000-000000000001',
        dog_id: pet.id,
        level: 'CRITICAL',
        opened_at: new Date().toISOString(),
        reading_at: new Date().toISOString(),
        peak_temperature_celsius: 41,
        peak_heat_index_f: 110,
      },
      collar,
    );
    stubFetch({
      'GET /api/dogs': () => jsonResponse(200, { dogs: [pet], total: 1 }),
      'GET /api/devices': () => jsonResponse(200, { devices: [collar], total: 1 }),
      'GET /api/alerts?resolved=false&limit=100': () =>
        jsonResponse(200, { alerts: [alert], total: 1 }),
    });
    renderWithProviders(<MyPetsPage />, { auth: fakeAuth(makeUser()) });
    const list = await screen.findByRole('region', { name: /All Pets/ });
    expect(await within(list).findByText('Critical')).toHaveAttribute('data-level', 'CRITICAL');
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Critical heat alert · peak 41.0°C / 105.8°F');
    expect(within(banner).getByRole('button', { name: /^Resolve\b/ })).toBeInTheDocument();
  });
});

describe('the list on My Pets', () => {
  it("shows the dog's one level now, not an open alert's peak, and keeps the other alerts' chips", async () => {
    const pet = makePet({ name: 'Biscuit' });
    const now = new Date().toISOString();
    // Cooled to Warning since the Critical peak: the alert stays open at its peak level.
    const collar = makeDevice({
      dog_id: pet.id,
      vitals_status: 'WARNING',
      vitals_recorded_at: now,
    });
    const heat = makeAlert(
      { id: '20000000-0000-4000-8000-000000000001', level: 'CRITICAL', opened_at: now },
      collar,
    );
    const battery = makeAlert(
      {
        id: '20000000-0000-4000-8000-000000000002',
        type: 'low_battery',
        level: null,
        battery_level: 15,
        opened_at: now,
      },
      collar,
    );
    stubFetch({
      'GET /api/dogs': () => jsonResponse(200, { dogs: [pet], total: 1 }),
      'GET /api/devices': () => jsonResponse(200, { devices: [collar], total: 1 }),
      'GET /api/alerts?resolved=false&limit=100': () =>
        jsonResponse(200, { alerts: [heat, battery], total: 2 }),
    });
    renderWithProviders(<MyPetsPage />, { auth: fakeAuth(makeUser()) });
    const list = await screen.findByRole('region', { name: /All Pets/ });
    expect(await within(list).findByText('Battery low')).toBeInTheDocument();
    expect(within(list).getByText('Warning')).toHaveAttribute('data-level', 'WARNING');
    expect(list).not.toHaveTextContent(/Critical/);
    expect(within(list).getByText('Danger')).toBeInTheDocument(); // the spec's pet badge
  });
});

describe('the level on My Pets', () => {
  it("shows the spec's Danger badge for a model-only level, and the one level with why on the card", async () => {
    const pet = makePet({ name: 'Rex' });
    const collar = makeDevice({
      dog_id: pet.id,
      vitals_status: 'DANGER',
      threshold_status: 'SAFE',
      vitals_recorded_at: new Date().toISOString(),
      temperature_celsius: 27,
      risk_band: 'DANGER',
      risk_score: 6.2,
      risk_reasons: [
        'exercise for 25 minutes, about 4× the risk',
        'flat-faced breed (French Bulldog), about 2× the risk',
      ],
    });
    stubFetch({
      'GET /api/dogs': () => jsonResponse(200, { dogs: [pet], total: 1 }),
      'GET /api/devices': () => jsonResponse(200, { devices: [collar], total: 1 }),
    });
    renderWithProviders(<MyPetsPage />, { auth: fakeAuth(makeUser()) });
    const list = await screen.findByRole('region', { name: /All Pets/ });
    // The spec's Danger badge, and the one level in the cards' word set beside it.
    const dangers = await within(list).findAllByText('Danger');
    expect(dangers.map((d) => d.dataset.status ?? d.dataset.level)).toEqual(['danger', 'DANGER']);
    expect(screen.getByText('Body temperature (collar)')).toBeInTheDocument();
    expect(
      screen.getByText('Exercise for 25 minutes · Flat-faced breed (French Bulldog)'),
    ).toBeInTheDocument();
    const details = screen.getByText('What to do and why').closest('details')!;
    expect(details).toHaveTextContent('exercise for 25 minutes, about 4× the risk');
    expect(details).toHaveTextContent('Call your vet.');
    expect(
      within(details).getByRole('link', { name: 'Find an emergency vet' }),
    ).toBeInTheDocument();
  });
});

describe('My Pets on a phone', () => {
  it('puts the list before the detail card, with pet names as tall tap targets', async () => {
    const alpha = makePet({ name: 'Alpha' });
    stubFetch({
      'GET /api/dogs': () => jsonResponse(200, { dogs: [alpha], total: 1 }),
      'GET /api/devices': () => jsonResponse(200, { devices: [], total: 0 }),
    });
    renderWithProviders(<MyPetsPage />, { auth: fakeAuth(makeUser()) });
    const list = await screen.findByRole('region', { name: /All Pets/ });
    const detail = document.getElementById('pet-detail-title')!;
    // Document order is the order on a phone, where the two stack.
    expect(list.compareDocumentPosition(detail) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(list.className).not.toMatch(/order-/);
    expect(screen.getByRole('button', { name: /^Alpha/ })).toHaveClass('min-h-11');
  });

  it("opens the add-pet sheet when it arrives from the dashboard's Add a pet", async () => {
    stubFetch({
      'GET /api/dogs': () => jsonResponse(200, { dogs: [], total: 0 }),
      'GET /api/devices': () => jsonResponse(200, { devices: [], total: 0 }),
    });
    renderWithProviders(<MyPetsPage />, { auth: fakeAuth(makeUser()), route: '/my-pets?add=pet' });
    expect(await screen.findByRole('dialog', { name: 'Add New Pet' })).toBeInTheDocument();
  });
});

describe('choosing another pet on a phone', () => {
  it("scrolls the card's top (its name) into view below the header, not its nearest edge", async () => {
    const alpha = makePet({ name: 'Alpha' });
    const bravo = makePet({ name: 'Bravo' });
    stubFetch({
      'GET /api/dogs': () => jsonResponse(200, { dogs: [alpha, bravo], total: 2 }),
      'GET /api/devices': () => jsonResponse(200, { devices: [], total: 0 }),
    });
    renderWithProviders(<MyPetsPage />, { auth: fakeAuth(makeUser()) });
    const bravoButton = await screen.findByRole('button', { name: /^Bravo/ });
    const card = document.getElementById('pet-detail-title')!.closest('.scroll-mt-20')!;
    // The owner has scrolled down to the list: the card's top is above the screen.
    vi.spyOn(card, 'getBoundingClientRect').mockReturnValue({ top: -600 } as DOMRect);
    const scroll = vi.spyOn(card, 'scrollIntoView').mockImplementation(() => {});
    await userEvent.setup().click(bravoButton);
    expect(scroll).toHaveBeenCalledWith(expect.objectContaining({ block: 'start' }));
    expect(document.getElementById('pet-detail-title')).toHaveTextContent('Bravo');
  });
});

describe('My Pets when the collars cannot be loaded', () => {
  it('says so on the card with Try again, not "No collar yet", and keeps its open alert', async () => {
    const pet = makePet({ name: 'Biscuit' });
    const alert = makeAlert({ dog_id: pet.id, dog_name: 'Biscuit', level: 'CRITICAL' });
    stubFetch({
      'GET /api/dogs': () => jsonResponse(200, { dogs: [pet], total: 1 }),
      'GET /api/devices': () => jsonResponse(500, { error: 'Internal Server Error' }),
      'GET /api/alerts?resolved=false&limit=100': () =>
        jsonResponse(200, { alerts: [alert], total: 1 }),
    });
    renderWithProviders(<MyPetsPage />, { auth: fakeAuth(makeUser()) });
    expect(
      await screen.findByText(/Your collars could not be loaded just now/),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(screen.queryByText(/No collar yet/)).not.toBeInTheDocument();
    expect((await screen.findAllByText(/Critical heat alert/)).length).toBeGreaterThan(0);
  });
});

describe('keyboard focus around the pet sheet', () => {
  it('comes back to the button that opened the sheet when it closes', async () => {
    const pet = makePet({ name: 'Biscuit' });
    stubFetch({
      'GET /api/dogs': () => jsonResponse(200, { dogs: [pet], total: 1 }),
      'GET /api/devices': () => jsonResponse(200, { devices: [], total: 0 }),
    });
    renderWithProviders(<MyPetsPage />, { auth: fakeAuth(makeUser()) });
    const user = userEvent.setup();
    const add = await screen.findByRole('button', { name: 'Add Pet' });
    add.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(add).toHaveFocus();

    const edit = screen.getAllByRole('button', { name: /Edit Biscuit/ })[0]!;
    edit.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(edit).toHaveFocus();
  });
});

describe('a pet shared with the signed-in person', () => {
  it("says whose it is, and a caregiver gets neither Edit nor Delete, only the pet's pack", async () => {
    const own = makePet({ name: 'Alpha' });
    const shared = makePet({ name: 'Biscuit', access: 'caregiver', owner_name: 'Riley Owner' });
    stubFetch({
      'GET /api/dogs': () => jsonResponse(200, { dogs: [shared, own], total: 2 }),
      'GET /api/devices': () => jsonResponse(200, { devices: [], total: 0 }),
    });
    renderWithProviders(<MyPetsPage />, { auth: fakeAuth(makeUser()) });
    const list = await screen.findByRole('region', { name: /All Pets/ });
    const [sharedItem, ownItem] = within(list).getAllByRole('listitem');
    expect(sharedItem).toHaveTextContent('Shared by Riley Owner · Caregiver');
    expect(within(sharedItem!).queryByRole('button', { name: 'Edit Biscuit' })).toBeNull();
    expect(within(sharedItem!).queryByRole('button', { name: 'Delete Biscuit' })).toBeNull();
    expect(within(sharedItem!).getByRole('button', { name: 'Pack of Biscuit' })).toBeVisible();
    // Their own pet keeps every action, and no tag.
    expect(ownItem).not.toHaveTextContent('Shared by');
    expect(within(ownItem!).getByRole('button', { name: 'Edit Alpha' })).toBeVisible();
    expect(within(ownItem!).getByRole('button', { name: 'Delete Alpha' })).toBeVisible();

    // The detail card (the first pet, the shared one): no Edit Profile, and why.
    const detail = screen
      .getByRole('heading', { name: 'Biscuit', level: 2 })
      .closest('[data-slot="card"]')!;
    expect(
      within(detail as HTMLElement).queryByRole('button', { name: 'Edit Profile' }),
    ).toBeNull();
    expect(detail).toHaveTextContent(
      'As a caregiver you see Biscuit live and handle their alerts; only Riley Owner and co-owners change their profile.',
    );
    expect(detail).toHaveTextContent("No collar yet. Riley Owner adds Biscuit's collars.");
  });

  it('lets a co-owner edit the pet but not delete it', async () => {
    const shared = makePet({ name: 'Biscuit', access: 'co_owner', owner_name: 'Riley Owner' });
    stubFetch({
      'GET /api/dogs': () => jsonResponse(200, { dogs: [shared], total: 1 }),
      'GET /api/devices': () => jsonResponse(200, { devices: [], total: 0 }),
    });
    renderWithProviders(<MyPetsPage />, { auth: fakeAuth(makeUser()) });
    const list = await screen.findByRole('region', { name: /All Pets/ });
    expect(list).toHaveTextContent('Shared by Riley Owner · Co-owner');
    expect(within(list).getByRole('button', { name: 'Edit Biscuit' })).toBeVisible();
    expect(within(list).queryByRole('button', { name: 'Delete Biscuit' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Edit Profile' })).toBeVisible();
  });

  it("opens the pet's pack from its card", async () => {
    const pet = makePet({ name: 'Biscuit' });
    stubFetch({
      'GET /api/dogs': () => jsonResponse(200, { dogs: [pet], total: 1 }),
      'GET /api/devices': () => jsonResponse(200, { devices: [], total: 0 }),
      [`GET /api/dogs/${pet.id}/pack`]: () =>
        jsonResponse(200, {
          pack: {
            dog_id: pet.id,
            dog_name: pet.name,
            owner: { user_id: pet.user_id, name: 'Riley Owner' },
            access: 'owner',
            members: [],
            invitations: [],
          },
        }),
    });
    renderWithProviders(<MyPetsPage />, { auth: fakeAuth(makeUser()) });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Pack of Biscuit' }));
    const sheet = await screen.findByRole('dialog', { name: "Biscuit's pack" });
    expect(await within(sheet).findByText(/^Only you so far/)).toBeInTheDocument();
  });
});
