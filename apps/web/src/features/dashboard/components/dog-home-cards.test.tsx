import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch } from '@/testing/fixtures';
import { makeDevice, makePet } from '@/testing/devices';
import { openFakeStream, sendReading } from '@/testing/fake-event-source';
import { makeAlert, makeReading } from '@/testing/devices';
import { makeActivity, makeInsights } from '@/testing/activity';
import { UserDashboard } from './user-dashboard';
import { dogHomeState } from './dog-home-state';
import { homeWorry } from './dog-home-cards';

const NOW = Date.parse('2025-07-01T12:00:00.000Z');
const ago = (s: number) => new Date(NOW - s * 1000).toISOString();
const user = makeUser({ name: 'Riley' });

let stop: (() => void) | undefined;
beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  stop?.();
  stop = undefined;
  vi.useRealTimers();
});

// Stream events carry UUIDs; the live cache ignores an event that does not parse.
const rex = makePet({ id: 'dog-rex', name: 'Rex' });
const bella = makePet({ id: 'dog-bella', name: 'Bella' });
const luna = makePet({ id: 'dog-luna', name: 'Luna' });
const rexCollar = makeDevice({
  id: '10000000-0000-4000-8000-00000000000a',
  device_name: 'Rex collar',
  dog_id: 'dog-rex',
  dog_name: 'Rex',
  temperature_celsius: 41,
  humidity_percent: 62.5,
  battery_level: 64,
  vitals_status: 'CRITICAL',
  vitals_recorded_at: ago(12),
  last_seen: ago(12),
});
const bellaCollar = makeDevice({
  id: '10000000-0000-4000-8000-00000000000b',
  dog_id: 'dog-bella',
  dog_name: 'Bella',
  temperature_celsius: 24,
  humidity_percent: 40,
  vitals_status: 'SAFE',
  vitals_recorded_at: ago(600),
});

function setup(
  dogs = [rex, bella, luna],
  devices = [rexCollar, bellaCollar],
  more: Parameters<typeof stubFetch>[0] = {},
) {
  stubFetch({
    'GET /api/dogs': () => jsonResponse(200, { dogs, total: dogs.length }),
    'GET /api/devices': () => jsonResponse(200, { devices, total: devices.length }),
    ...more,
  });
  return renderWithProviders(<UserDashboard user={user} />, { auth: fakeAuth(user) });
}

const card = async (name: string) =>
  within((await screen.findByRole('article', { name })) as HTMLElement);

describe('the dashboard’s card per dog', () => {
  it('shows each dog’s state, values, battery and how old the reading is, above the links', async () => {
    setup();
    const rexCard = await card('Rex');
    expect(rexCard.getByText('Critical')).toHaveAttribute('data-level', 'CRITICAL');
    expect(rexCard.getByText('Body temperature (collar)')).toBeInTheDocument();
    expect(rexCard.getByText('41.0°C')).toBeInTheDocument();
    expect(rexCard.getByText('62.5%')).toBeInTheDocument();
    expect(rexCard.getByRole('meter', { name: 'Battery' })).toHaveAttribute('aria-valuenow', '64');
    expect(rexCard.getByText('Updated 12s ago')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Rex' })).toHaveAttribute(
      'href',
      '/devices/10000000-0000-4000-8000-00000000000a/history',
    );

    // A reading 10 minutes old: Disconnected, what it said then dimmed.
    const bellaCard = await card('Bella');
    expect(bellaCard.getByText('Disconnected')).toBeInTheDocument();
    expect(bellaCard.getByText('Last known')).toBeInTheDocument();
    expect(bellaCard.getByText('Last known').parentElement).toHaveAttribute('data-stale', 'true');
    expect(bellaCard.getByText('Updated 10m ago')).toBeInTheDocument();
    // No collar: says so and leads to Devices.
    const lunaCard = await card('Luna');
    expect(lunaCard.getByText('No collar')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Luna' })).toHaveAttribute('href', '/devices');

    // The dog cards come before the My Pets and Monitoring links.
    const links = screen.getAllByRole('link').map((l) => l.getAttribute('href'));
    expect(links.indexOf('/devices/10000000-0000-4000-8000-00000000000a/history')).toBeLessThan(
      links.indexOf('/my-pets'),
    );
  });

  it('ticks the age every second and follows a live reading', async () => {
    const { queryClient } = setup([rex], [rexCollar]);
    const rexCard = await card('Rex');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5_000);
    });
    expect(rexCard.getByText('Updated 17s ago')).toBeInTheDocument();

    stop = await openFakeStream(queryClient);
    // Opening refetches what may have been missed; let that land before the live reading.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(50);
    });
    const reading = makeReading({
      temperature: 30,
      humidity: 50,
      status: 'SAFE',
      timestamp: new Date().toISOString(),
    });
    await act(async () => {
      sendReading(rexCollar.id, reading);
      await vi.advanceTimersByTimeAsync(10);
    });
    expect(await rexCard.findByText('Safe')).toBeInTheDocument();
    expect(rexCard.getByText('30.0°C')).toBeInTheDocument();
    expect(rexCard.getByText('Updated just now')).toBeInTheDocument();
  });

  it('says the one level, one line of why, and what to do and every reason on demand', async () => {
    const collar = {
      ...rexCollar,
      temperature_celsius: 30,
      vitals_status: 'DANGER' as const,
      threshold_status: 'SAFE' as const,
      risk_band: 'DANGER' as const,
      risk_score: 6.5,
      risk_reasons: [
        'flat-faced breed with a high published heat risk (French Bulldog), about 6× the risk',
      ],
    };
    setup([rex], [collar]);
    // One level per dog (DESIGN §3): the level the model raised, in one word.
    const rexCard = await card('Rex');
    expect(rexCard.getByText('Danger')).toHaveAttribute('data-level', 'DANGER');
    expect(rexCard.queryByText(/Heat risk/)).not.toBeInTheDocument();
    expect(
      rexCard.getByText('Flat-faced breed with a high published heat risk (French Bulldog)'),
    ).toBeInTheDocument();
    const details = rexCard.getByText('What to do and why').closest('details')!;
    expect(details.open).toBe(false);
    expect(details).toHaveTextContent('(French Bulldog), about 6× the risk');
    expect(details).toHaveTextContent('Wet the coat with cool, not ice-cold, water and fan it.');
    expect(within(details).getByRole('link', { name: 'Find an emergency vet' })).toHaveAttribute(
      'href',
      '/emergency',
    );
  });

  it('adds nothing about why while Safe, and no first aid when the reading is old', async () => {
    const safe = { ...rexCollar, vitals_status: 'SAFE' as const, risk_band: 'SAFE' as const };
    const stale = {
      ...bellaCollar,
      vitals_status: 'CRITICAL' as const,
      risk_band: 'CRITICAL' as const,
      risk_reasons: ['a parked car'],
    };
    setup([rex, bella], [safe, stale]);
    expect((await card('Rex')).getByText('Safe')).toBeInTheDocument();
    const bellaCard = await card('Bella');
    expect(bellaCard.getByText('Disconnected')).toBeInTheDocument();
    expect(screen.queryByText('What to do and why')).not.toBeInTheDocument();
    // The level it shows ("Last known Critical") keeps its why, the same as when it was live.
    expect(bellaCard.getByText('A parked car')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Find an emergency vet' })).not.toBeInTheDocument();
    // A stale Critical is dimmed, not shown as now: the Safe dog with a fresh reading is not
    // less worrying than a silent one, which comes first.
    expect(screen.getAllByRole('article').map((a) => a.getAttribute('aria-labelledby'))).toEqual([
      'dog-home-dog-bella',
      'dog-home-dog-rex',
    ]);
  });

  it('never says a dog shown above Safe spent no time above Safe this week', async () => {
    // The week's insights are the 7 whole days before today, from a job's rollups: a dog
    // Critical now may have spent none of them above Safe.
    const quietWeek = (dogId: string) => {
      const insights = makeInsights(dogId);
      return {
        ...insights,
        insights: [
          ...insights.insights,
          {
            kind: 'heat' as const,
            text: 'Biscuit spent no time above Safe this week.',
            numbers: {
              safe_minutes: 5_000,
              warning_minutes: 0,
              danger_minutes: 0,
              critical_minutes: 0,
            },
          },
        ],
      };
    };
    const routesOf = (dogId: string) => ({
      [`GET /api/dogs/${dogId}/activity?days=7`]: () => jsonResponse(200, makeActivity(dogId)),
      [`GET /api/dogs/${dogId}/insights`]: () => jsonResponse(200, quietWeek(dogId)),
    });
    const safeBella = { ...bellaCollar, vitals_recorded_at: ago(5) };
    setup([rex, bella], [rexCollar, safeBella], { ...routesOf(rex.id), ...routesOf(bella.id) });
    const bellaCard = await card('Bella');
    expect(await bellaCard.findByText('Biscuit spent no time above Safe this week.')).toBeVisible();
    const rexCard = await card('Rex');
    expect(rexCard.getByText('Critical')).toHaveAttribute('data-level', 'CRITICAL');
    await rexCard.findByText(/averaged 42 active minutes/);
    expect(rexCard.queryByText(/no time above Safe/)).not.toBeInTheDocument();
  });

  it('puts the worst dog first, then by name', async () => {
    const collarOf = (dog: typeof rex, n: string, vitals_status: 'SAFE' | 'WARNING' | 'DANGER') =>
      makeDevice({
        id: `10000000-0000-4000-8000-0000000000${n}`,
        dog_id: dog.id,
        dog_name: dog.name,
        temperature_celsius: 30,
        humidity_percent: 40,
        vitals_status,
        vitals_recorded_at: ago(5),
      });
    const ada = makePet({ id: 'dog-ada', name: 'Ada' });
    setup(
      [ada, bella, luna, rex],
      [
        collarOf(ada, 'c1', 'SAFE'),
        collarOf(bella, 'c2', 'WARNING'),
        collarOf(rex, 'c3', 'DANGER'),
      ],
    );
    await card('Rex');
    expect(screen.getAllByRole('article').map((a) => a.getAttribute('aria-labelledby'))).toEqual([
      'dog-home-dog-rex',
      'dog-home-dog-bella',
      'dog-home-dog-ada',
      'dog-home-dog-luna',
    ]);
  });

  it('labels the battery bar', async () => {
    setup([rex], [rexCollar]);
    const rexCard = await card('Rex');
    expect(rexCard.getByText('Battery')).toBeInTheDocument();
    expect(rexCard.getByRole('meter', { name: 'Battery' })).toHaveAttribute('aria-valuenow', '64');
  });

  it('says the collars could not be loaded, not that a dog has none, keeps open alerts, and tries again', async () => {
    let collarsUp = false;
    const alert = makeAlert({ dog_id: 'dog-rex', dog_name: 'Rex' }, rexCollar);
    stubFetch({
      'GET /api/dogs': () => jsonResponse(200, { dogs: [rex, luna], total: 2 }),
      'GET /api/devices': () =>
        collarsUp
          ? jsonResponse(200, { devices: [rexCollar], total: 1 })
          : jsonResponse(500, { error: 'Internal Server Error' }),
      'GET /api/alerts?resolved=false&limit=100': () =>
        jsonResponse(200, { alerts: [alert], total: 1 }),
    });
    renderWithProviders(<UserDashboard user={user} />, { auth: fakeAuth(user) });
    const failure = (await screen.findAllByRole('alert')).find((el) =>
      el.textContent?.includes(
        'Your collars could not be loaded just now, so their readings are not shown.',
      ),
    )!;
    expect(failure).toBeDefined();
    for (const name of ['Rex', 'Luna']) {
      const dogCard = await card(name);
      expect(dogCard.getByText('Not known')).toHaveAttribute('data-state', 'unknown');
      expect(dogCard.getByText('Its collar could not be loaded just now.')).toBeInTheDocument();
    }
    expect(screen.queryByText('No collar')).not.toBeInTheDocument();
    expect(screen.queryByText(/Put a collar on this dog/)).not.toBeInTheDocument();
    // Rex's open alert is still shown, by the alert's own pet.
    expect(await screen.findByText(/Danger heat alert/)).toBeInTheDocument();

    collarsUp = true;
    await userEvent
      .setup({ advanceTimers: vi.advanceTimersByTime })
      .click(within(failure).getByRole('button', { name: 'Try again' }));
    expect(await (await card('Rex')).findByText('Critical')).toBeInTheDocument();
    expect((await card('Luna')).getByText('No collar')).toBeInTheDocument();
    expect(screen.queryByText(/Your collars could not be loaded/)).not.toBeInTheDocument();
    expect(screen.getByText(/Danger heat alert/)).toBeInTheDocument();
  });

  it('claims nothing about a collar while the collars are still loading', async () => {
    stubFetch({
      'GET /api/dogs': () => jsonResponse(200, { dogs: [luna], total: 1 }),
      'GET /api/devices': () => new Promise<Response>(() => {}),
    });
    renderWithProviders(<UserDashboard user={user} />, { auth: fakeAuth(user) });
    const lunaCard = await card('Luna');
    expect(lunaCard.getByText('Checking…')).toHaveAttribute('data-state', 'checking');
    expect(lunaCard.queryByText('No collar')).not.toBeInTheDocument();
  });

  it('invites an owner without dogs to add one', async () => {
    setup([], []);
    // Straight to the add-pet sheet.
    expect(await screen.findByRole('link', { name: 'Add a pet' })).toHaveAttribute(
      'href',
      '/my-pets?add=pet',
    );
  });
});

describe('dogHomeState', () => {
  const at = (s: number, over = {}) =>
    makeDevice({ dog_id: 'd', vitals_recorded_at: ago(s), vitals_status: 'WARNING', ...over });
  it.each([
    ['no collar on the dog', [], 'no-collar'],
    [
      'a collar that never sent data',
      [at(0, { vitals_recorded_at: null, vitals_status: null })],
      'waiting',
    ],
    ['a fresh reading', [at(30)], 'WARNING'],
    ['a reading 2 minutes old', [at(120)], 'disconnected'],
    [
      'the freshest of two collars counts',
      [at(500, { vitals_status: 'SAFE' }), at(5, { vitals_status: 'DANGER' })],
      'DANGER',
    ],
    ['another dog’s collar is not this dog’s', [at(5, { dog_id: 'other' })], 'no-collar'],
    ['the collars are still loading', 'pending', 'checking'],
    ['the collars could not be loaded', 'failed', 'unknown'],
    ['the status is the thresholds’ alone', [at(5, { risk_band: 'CRITICAL' })], 'WARNING'],
  ] as const)('%s', (_, collars, kind) => {
    expect(dogHomeState('d', collars, NOW).kind).toBe(kind);
  });
});

describe('the links below the dog cards', () => {
  const linkText = 'Add your dogs, keep their profiles and medical notes up to date.';

  it('wait for the dogs and their collars, so they do not jump down as the cards fill in', async () => {
    let answer: (r: Response) => void = () => {};
    stubFetch({
      'GET /api/dogs': () => jsonResponse(200, { dogs: [rex], total: 1 }),
      'GET /api/devices': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    renderWithProviders(<UserDashboard user={user} />, { auth: fakeAuth(user) });
    await card('Rex');
    expect(screen.queryByText(linkText)).not.toBeInTheDocument();
    answer(await jsonResponse(200, { devices: [rexCollar], total: 1 }));
    expect(await screen.findByText(linkText)).toBeInTheDocument();
  });

  it('still appear when the dogs cannot be loaded', async () => {
    stubFetch({
      'GET /api/dogs': () => jsonResponse(500, { error: 'down' }),
      'GET /api/devices': () => jsonResponse(200, { devices: [], total: 0 }),
    });
    renderWithProviders(<UserDashboard user={user} />, { auth: fakeAuth(user) });
    await screen.findByText(/Your dogs could not be loaded just now/);
    expect(await screen.findByText(linkText)).toBeInTheDocument();
  });
});

describe('the worry of a dog on the dashboard', () => {
  it('ranks a dog whose collars are not known ("Not known") with the stale ones, above Safe', () => {
    const now = Date.parse('2025-07-01T12:00:00.000Z');
    const pet = makePet();
    const fresh = makeDevice({
      dog_id: pet.id,
      vitals_status: 'SAFE',
      vitals_recorded_at: new Date(now - 5_000).toISOString(),
    });
    const stale = { ...fresh, vitals_recorded_at: new Date(now - 600_000).toISOString() };
    const safe = homeWorry(dogHomeState(pet.id, [fresh], now), [], now);
    const unknown = homeWorry(dogHomeState(pet.id, 'failed', now), [], now);
    expect(unknown).toBeGreaterThan(safe);
    expect(unknown).toBe(homeWorry(dogHomeState(pet.id, [stale], now), [], now));
  });
});
