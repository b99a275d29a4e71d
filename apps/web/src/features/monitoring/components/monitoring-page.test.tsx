import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import type { Device } from '@pawguard/shared';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch } from '@/testing/fixtures';
import { browserTimeZone } from '@/lib/auth/time-zone';
import { makeAlert, makeDevice, makePet, makeReading } from '@/testing/devices';
import { makeActivity } from '@/testing/activity';
import { FakeEventSource, openFakeStream, sendReading } from '@/testing/fake-event-source';
import { MonitoringPage } from './monitoring-page';
import { TEMPERATURE_LABEL } from '@/components/dog-status';

/** The device-list calls (the open alerts are fetched beside them). */
const deviceCalls = (calls: { url: string }[]) =>
  calls.filter((c) => c.url.startsWith('/api/devices'));

/** A whole list as one page of the paged devices answer. */
const paged = (body: { devices: unknown[] }) => ({ ...body, total: body.devices.length });

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const NOW = Date.parse('2025-07-01T12:00:00.000Z');
const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();

function liveDevice(overrides: Partial<Device> = {}): Device {
  return makeDevice({
    device_name: 'Biscuit collar',
    device_id: 'PET-BC01',
    dog_name: 'Biscuit',
    status: 'active',
    registration_status: 'active',
    firmware_version: '1.0.0',
    battery_level: 78,
    last_seen: ago(5),
    temperature_celsius: 31.4,
    humidity_percent: 55,
    heart_rate: 92,
    activity_level: 40,
    vitals_status: 'SAFE',
    vitals_recorded_at: ago(5),
    ...overrides,
  });
}

// The owner of the collars liveDevice makes.
const owner = () => fakeAuth(makeUser({ id: liveDevice().user_id!, name: 'Riley' }));

/** A device's card, found by its name as a person would. */
async function findCard(name: string) {
  const heading = await screen.findByRole('heading', { name });
  return within(heading.closest<HTMLElement>('[data-slot="card"]')!);
}

const lastUpdated = () => screen.getByText(/^Last updated:/).querySelector('time')!.textContent;

let stop: (() => void) | null = null;

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  vi.setSystemTime(NOW);
  FakeEventSource.reset();
});
afterEach(() => {
  stop?.();
  stop = null;
  vi.useRealTimers();
});

describe('Monitoring', () => {
  it("gives a collar's name, cut short on a narrow card, its full text as a tooltip", async () => {
    const name = 'The collar Biscuit wears on long summer walks by the lake';
    stubFetch({
      'GET /api/devices': () =>
        jsonResponse(200, paged({ devices: [liveDevice({ device_name: name })] })),
    });
    renderWithProviders(<MonitoringPage />, { auth: owner() });
    expect(await screen.findByRole('heading', { level: 2, name })).toHaveAttribute('title', name);
  });

  it('shows each collar: °C and °F, humidity, safe zone, heart rate and activity when present, battery', async () => {
    const biscuit = liveDevice();
    stubFetch({
      'GET /api/devices': () =>
        jsonResponse(
          200,
          paged({
            devices: [
              biscuit,
              liveDevice({
                device_name: 'Spare collar',
                device_id: 'PET-SP01',
                heart_rate: null,
                activity_level: null,
                vitals_status: 'WARNING',
                battery_level: 15,
              }),
            ],
          }),
        ),
    });
    renderWithProviders(<MonitoringPage />, { auth: owner() });
    expect(
      screen.getByRole('heading', { name: 'Device Monitoring Dashboard' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Loading devices' })).toBeInTheDocument();

    const first = await findCard('Biscuit collar');
    expect(first.getByText(TEMPERATURE_LABEL)).toBeInTheDocument();
    expect(first.getByText('31.4°C')).toBeInTheDocument();
    expect(first.getByText('Updated just now')).toBeInTheDocument();
    expect(first.getByText('/ 88.5°F')).toBeInTheDocument();
    expect(first.getByText('55.0%')).toBeInTheDocument();
    expect(first.getByText('Safe')).toBeInTheDocument();
    expect(first.getByText('92 bpm')).toBeInTheDocument();
    expect(first.getByText('40%')).toBeInTheDocument();
    expect(first.getByText('Connected')).toBeInTheDocument();
    expect(first.getByRole('meter', { name: 'Battery' })).toHaveAttribute('data-level', 'good');
    expect(first.getByRole('link', { name: 'View history of Biscuit collar' })).toHaveAttribute(
      'href',
      `/devices/${biscuit.id}/history`,
    );

    const spare = await findCard('Spare collar');
    // The dog's one level in one word, under the spec's 'Safe zone'.
    expect(spare.getByText('Warning')).toBeInTheDocument();
    expect(spare.queryByText('Danger')).not.toBeInTheDocument();
    // The worse dog first.
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Spare collar',
      'Biscuit collar',
    ]);
    expect(spare.queryByText('Heart rate')).not.toBeInTheDocument();
    expect(spare.queryByText('Activity level')).not.toBeInTheDocument();
    expect(spare.getByRole('meter', { name: 'Battery' })).toHaveAttribute('data-level', 'critical');
    // In the account's zone (London, an hour ahead of UTC in July), not the browser's.
    expect(lastUpdated()).toMatch(/^(01|13):00:00/);
    if (browserTimeZone() !== 'Europe/London')
      expect(screen.getByText(/Times in Europe\/London/)).toBeInTheDocument();
  });

  it('says so when a collar has sent no data yet', async () => {
    stubFetch({
      'GET /api/devices': () =>
        jsonResponse(
          200,
          paged({
            devices: [
              makeDevice({
                device_name: 'New collar',
                temperature_celsius: null,
                vitals_recorded_at: null,
              }),
            ],
          }),
        ),
    });
    renderWithProviders(<MonitoringPage />, { auth: owner() });
    const card = await findCard('New collar');
    expect(card.getByText('No data available')).toBeInTheDocument();
    expect(card.getByText('Disconnected')).toBeInTheDocument();
  });

  it('turns a card Disconnected when its reading turns 2 minutes old, without a reload', async () => {
    const calls = stubFetch({
      'GET /api/devices': () =>
        jsonResponse(200, paged({ devices: [liveDevice({ vitals_recorded_at: ago(110) })] })),
    });
    renderWithProviders(<MonitoringPage />, { auth: owner() });
    const card = await findCard('Biscuit collar');
    expect(card.getByText('Connected')).toBeInTheDocument();

    await act(async () => {
      await vi.advanceTimersByTimeAsync(11_000);
    });
    expect(card.getByText('Disconnected')).toBeInTheDocument();
    // The reading's own age, not when the page last asked.
    expect(card.getByText('Updated 2m ago')).toBeInTheDocument();
    expect(deviceCalls(calls)).toHaveLength(1);
  });

  it('updates from the live stream: a changed reading moves the values and the time and lights up', async () => {
    const device = liveDevice();
    stubFetch({ 'GET /api/devices': () => jsonResponse(200, paged({ devices: [device] })) });
    const { queryClient } = renderWithProviders(<MonitoringPage />, { auth: owner() });
    const card = await findCard('Biscuit collar');
    stop = await openFakeStream(queryClient);
    expect(await screen.findByText('Live')).toBeInTheDocument();
    const before = lastUpdated();

    // Five seconds later, a reading arrives; the cache tells the screen on its next tick.
    const send = async (temperature: number, humidity: number) => {
      await act(async () => {
        await vi.advanceTimersByTimeAsync(5_000);
      });
      const reading = makeReading({ temperature, humidity, status: 'SAFE' });
      await act(async () => {
        sendReading(device.id, reading);
        await vi.advanceTimersByTimeAsync(10);
      });
    };

    // Within 0.1: nothing moves.
    await send(31.45, 55.1);
    expect(card.getByText('31.4°C')).toBeInTheDocument();
    expect(card.getByText('55.0%')).toBeInTheDocument();
    expect(lastUpdated()).toBe(before);
    expect(card.getByText('31.4°C').closest('dd')).not.toHaveAttribute('data-changed');

    // More than 0.1: every value moves; what changed lights up.
    await send(32.6, 55.05);
    expect(card.getByText('32.6°C')).toBeInTheDocument();
    expect(card.getByText('/ 90.7°F')).toBeInTheDocument();
    expect(card.getByText('32.6°C').closest('dd')).toHaveAttribute('data-changed', 'true');
    expect(card.getByText('55.1%').closest('dd')).not.toHaveAttribute('data-changed');
    expect(lastUpdated()).not.toBe(before);
  });

  it("shows 'Failed to fetch data' with Try Again", async () => {
    let fail = true;
    stubFetch({
      'GET /api/devices': () =>
        fail
          ? jsonResponse(500, { error: 'Database unavailable' })
          : jsonResponse(200, paged({ devices: [liveDevice()] })),
    });
    const { queryClient } = renderWithProviders(<MonitoringPage />, { auth: owner() });
    expect(
      await screen.findByRole('heading', { name: 'Failed to fetch data' }),
    ).toBeInTheDocument();
    // The stream is open, but with no card loaded nothing on the page is live.
    stop = await openFakeStream(queryClient);
    expect(screen.queryByText('Live')).toBeNull();
    fail = false;
    await userEvent
      .setup({ advanceTimers: vi.advanceTimersByTime })
      .click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await findCard('Biscuit collar')).toBeTruthy();
    expect(screen.getByText('Live')).toBeInTheDocument();
  }, 15_000);

  it("shows 'No Devices Found' with Add Device going to /devices", async () => {
    stubFetch({ 'GET /api/devices': () => jsonResponse(200, paged({ devices: [] })) });
    renderWithProviders(<MonitoringPage />, { auth: owner() });
    expect(await screen.findByRole('heading', { name: 'No Devices Found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add Device' })).toHaveAttribute('href', '/devices');
  });

  it('shows an admin every device on the platform, with its owner', async () => {
    const calls = stubFetch({
      'GET /api/devices/all': () =>
        jsonResponse(200, paged({ devices: [liveDevice({ owner_name: 'Sam Owner' })] })),
    });
    renderWithProviders(<MonitoringPage />, {
      auth: fakeAuth(makeUser({ role: 'admin', name: 'Ada' })),
    });
    const card = await findCard('Biscuit collar');
    expect(card.getByText(/Owner: Sam Owner/)).toBeInTheDocument();
    expect(deviceCalls(calls).map((c) => c.url)).toEqual(['/api/devices/all']);
  });

  it('tells an admin when the fleet has more open alerts than one page shows', async () => {
    const device = liveDevice({ owner_name: 'Sam Owner' });
    const page = Array.from({ length: 100 }, (_, i) =>
      makeAlert(
        { id: `40000000-0000-4000-8000-${String(i).padStart(12, '0')}`, type: 'low_battery' },
        device,
      ),
    );
    stubFetch({
      'GET /api/devices/all': () => jsonResponse(200, paged({ devices: [device] })),
      'GET /api/alerts?resolved=false&limit=100': () =>
        jsonResponse(200, { alerts: page, total: 130 }),
    });
    renderWithProviders(<MonitoringPage />, {
      auth: fakeAuth(makeUser({ role: 'admin', name: 'Ada' })),
    });
    const notice = (await screen.findByText('Not every open alert is shown.')).closest(
      '[role="status"]',
    );
    expect(notice).toHaveTextContent(
      'Only the newest 100 of 130 are shown: an older one may be missing from its card.',
    );
    // Standing news, not an error: it does not interrupt a screen reader.
    expect(screen.queryByRole('alert', { name: /Not every open alert/ })).toBeNull();
  });

  it("refreshes on Refresh Data with the toast 'Refreshed' / 'Device data updated'; the time moves only for a changed reading", async () => {
    const device = liveDevice({ temperature_celsius: 31.2 });
    const calls = stubFetch({
      'GET /api/devices': () => jsonResponse(200, paged({ devices: [device] })),
    });
    renderWithProviders(<MonitoringPage />, { auth: owner() });
    await findCard('Biscuit collar');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(30_000);
    });
    await userEvent
      .setup({ advanceTimers: vi.advanceTimersByTime })
      .click(screen.getByRole('button', { name: 'Refresh Data' }));
    expect(toast.success).toHaveBeenCalledWith('Refreshed', { description: 'Device data updated' });
    expect(deviceCalls(calls)).toHaveLength(2);
    // The same reading: confirmed, not new.
    expect(lastUpdated()).toMatch(/^(01|13):00:00/);

    device.temperature_celsius = 33.4;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(30_000);
    });
    await userEvent
      .setup({ advanceTimers: vi.advanceTimersByTime })
      .click(screen.getByRole('button', { name: 'Refresh Data' }));
    await waitFor(() => expect(deviceCalls(calls)).toHaveLength(3));
    await waitFor(() => expect(screen.getByText('33.4°C')).toBeInTheDocument());
    await waitFor(() => expect(lastUpdated()).toMatch(/^(01|13):01:00/));
  });

  it('says so when the open alerts could not be loaded, and shows them after Try Again', async () => {
    const device = liveDevice();
    let failing = true;
    stubFetch({
      'GET /api/devices': () => jsonResponse(200, paged({ devices: [device] })),
      'GET /api/alerts?resolved=false&limit=100': () =>
        failing
          ? jsonResponse(500, { error: 'Something went wrong on our side. Please try again.' })
          : jsonResponse(200, {
              alerts: [makeAlert({ type: 'heat', level: 'CRITICAL', opened_at: ago(60) }, device)],
              total: 1,
            }),
    });
    renderWithProviders(<MonitoringPage />, { auth: owner() });
    await findCard('Biscuit collar');
    const notice = await screen.findByText('Alerts could not be loaded.');
    expect(notice.closest('[role="alert"]')).toHaveTextContent(
      'An open alert may be missing here.',
    );
    failing = false;
    await userEvent
      .setup({ advanceTimers: vi.advanceTimersByTime })
      .click(screen.getByRole('button', { name: 'Load alerts again' }));
    const card = await findCard('Biscuit collar');
    expect(await card.findByText(/Critical heat alert/)).toBeInTheDocument();
    expect(screen.queryByText('Alerts could not be loaded.')).toBeNull();
  });

  it('shows an open heat alert on its card with why, what to do for its level, and Resolve sends it', async () => {
    const device = liveDevice();
    const alert = makeAlert(
      {
        level: 'CRITICAL',
        opened_at: ago(300),
        reading_at: ago(300),
        peak_temperature_celsius: 41,
        peak_heat_index_f: 110,
        reasons: [
          'collar temperature climbing steadily while Biscuit is still: the pattern of a parked car',
        ],
      },
      device,
    );
    const calls = stubFetch({
      'GET /api/devices': () => jsonResponse(200, paged({ devices: [device] })),
      'GET /api/devices/all': () => jsonResponse(200, paged({ devices: [device] })),
      'GET /api/alerts?resolved=false&limit=100': () =>
        jsonResponse(200, { alerts: [alert], total: 1 }),
      [`POST /api/devices/${device.id}/alerts/${alert.id}/resolve`]: () =>
        jsonResponse(200, { alert: { ...alert, resolved: true, resolved_at: ago(0) } }),
    });
    renderWithProviders(<MonitoringPage />, { auth: owner() });
    const card = await findCard('Biscuit collar');
    const banner = await card.findByRole('alert');
    expect(banner).toHaveTextContent('Critical heat alert · peak 41.0°C / 105.8°F');
    // Every open alert fits the page: nothing is said of missing ones.
    expect(screen.queryByText('Not every open alert is shown.')).toBeNull();
    expect(banner).toHaveTextContent('Opened 5m ago');
    // Its why and what to do are the card's, said once, for the alert's level: the reading
    // shown is Safe, so the why is the alert's own, named as the alert's.
    expect(banner).not.toHaveTextContent('the pattern of a parked car');
    expect(card.getByText('What to do and why')).toBeInTheDocument();
    expect(card.getByText('Why the alert reached Critical').nextElementSibling).toHaveTextContent(
      'collar temperature climbing steadily while Biscuit is still: the pattern of a parked car',
    );
    // At a glance too, named as the alert's: the reading shown has no why of its own.
    expect(card.getByText(/^The alert reached Critical: /)).toHaveTextContent(
      'The alert reached Critical: Collar temperature climbing steadily while Biscuit is still: the pattern of a parked car',
    );
    expect(card.getAllByText(/the pattern of a parked car/)).toHaveLength(2);
    expect(
      card.getAllByText('Cool first: pour cool water over the body and fan it, now.'),
    ).toHaveLength(1);
    expect(card.getByRole('link', { name: 'Find an emergency vet' })).toHaveAttribute(
      'href',
      '/emergency',
    );
    await userEvent
      .setup({ advanceTimers: vi.advanceTimersByTime })
      .click(within(banner).getByRole('button', { name: /^Resolve\b/ }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.url.endsWith('/resolve'))).toBe(true),
    );
    expect(toast.success).toHaveBeenCalledWith('Alert resolved', {
      description:
        'If the next reading is still hot (Warning or above), PawGuard opens a new alert and tells you again.',
    });

    // An admin sees the same alert on the owner's collar, without a Resolve of their own.
    cleanup();
    renderWithProviders(<MonitoringPage />, {
      auth: fakeAuth(makeUser({ role: 'admin', name: 'Ada' })),
    });
    const seen = await (await findCard('Biscuit collar')).findByRole('alert');
    expect(seen).toHaveTextContent('Critical heat alert');
    expect(within(seen).queryByRole('button', { name: /Resolve/ })).toBeNull();
  });
});

describe('a collar on a pet shared with the signed-in person', () => {
  it("says whose it is, and a caregiver may acknowledge and resolve its alerts but not set the dog's goal", async () => {
    const pet = makePet({ name: 'Biscuit', access: 'caregiver', owner_name: 'Riley Owner' });
    const device = liveDevice({ dog_id: pet.id, owner_name: 'Riley Owner' });
    const alert = makeAlert({ level: 'DANGER', opened_at: ago(60), dog_id: pet.id }, device);
    stubFetch({
      'GET /api/devices': () => jsonResponse(200, paged({ devices: [device] })),
      'GET /api/dogs': () => jsonResponse(200, { dogs: [pet], total: 1 }),
      'GET /api/alerts?resolved=false&limit=100': () =>
        jsonResponse(200, { alerts: [alert], total: 1 }),
      [`GET /api/dogs/${pet.id}/activity?days=7`]: () => jsonResponse(200, makeActivity(pet.id)),
    });
    // Sam, a caregiver: not the collar's owner.
    renderWithProviders(<MonitoringPage />, { auth: fakeAuth(makeUser({ name: 'Sam' })) });
    const card = await findCard('Biscuit collar');
    expect(await card.findByText('Shared by Riley Owner · Caregiver')).toBeInTheDocument();
    const banner = await card.findByRole('alert');
    expect(within(banner).getByRole('button', { name: /^Resolve\b/ })).toBeInTheDocument();
    expect(within(banner).getByRole('button', { name: /^Acknowledge\b/ })).toBeInTheDocument();
    expect(
      await card.findByRole('progressbar', { name: "Biscuit's activity today" }),
    ).toBeInTheDocument();
    expect(card.queryByRole('button', { name: 'Edit goal for Biscuit' })).toBeNull();
  });
});

describe('the level on the Monitoring card', () => {
  const reasons = [
    'flat-faced breed with a high published heat risk (French Bulldog), about 6× the risk',
    'exercise for 25 minutes, about 4× the risk',
  ];
  /** A model-only Danger: the thresholds say Safe, the heat-risk model Danger. */
  const modelDanger = (overrides: Partial<Device> = {}) =>
    liveDevice({
      vitals_status: 'DANGER',
      threshold_status: 'SAFE',
      risk_band: 'DANGER',
      risk_score: 6.4,
      risk_reasons: reasons,
      ...overrides,
    });
  const safeZone = (card: ReturnType<typeof within>) =>
    card.getByText('Safe zone').nextElementSibling as HTMLElement;

  it('says the one level first, one line of why, and what to do and every reason on demand', async () => {
    stubFetch({
      'GET /api/devices': () => jsonResponse(200, paged({ devices: [modelDanger()] })),
    });
    renderWithProviders(<MonitoringPage />, { auth: owner() });
    const card = await findCard('Biscuit collar');
    expect(safeZone(card)).toHaveTextContent(/^Danger$/);
    // One line: the leading reasons in a few words, without the odds.
    expect(
      card.getByText(
        'Flat-faced breed with a high published heat risk (French Bulldog) · Exercise for 25 minutes',
      ),
    ).toBeInTheDocument();
    expect(card.queryByText(/Heat risk/)).not.toBeInTheDocument();
    // The rest behind a disclosure, closed until asked for.
    const summary = card.getByText('What to do and why');
    const details = summary.closest('details')!;
    expect(details.open).toBe(false);
    await userEvent.setup({ advanceTimers: vi.advanceTimersByTime }).click(summary);
    expect(details.open).toBe(true);
    const why = within(details)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(why).toEqual(expect.arrayContaining(reasons));
    expect(details).toHaveTextContent(
      'Stop all activity now and move to shade or air conditioning.',
    );
    expect(within(details).getByRole('link', { name: 'Find an emergency vet' })).toHaveAttribute(
      'href',
      '/emergency',
    );
  });

  it('leads with the owner’s threshold when the thresholds set the level', async () => {
    stubFetch({
      'GET /api/devices': () =>
        jsonResponse(
          200,
          paged({
            devices: [
              liveDevice({
                vitals_status: 'CRITICAL',
                threshold_status: 'CRITICAL',
                risk_band: 'WARNING',
                risk_reasons: reasons,
              }),
            ],
          }),
        ),
    });
    renderWithProviders(<MonitoringPage />, { auth: owner() });
    const card = await findCard('Biscuit collar');
    expect(safeZone(card)).toHaveTextContent(/^Critical$/);
    expect(
      card.getByText(/^Collar temperature at or above your critical threshold · Flat-faced/),
    ).toBeInTheDocument();
  });

  it('says nothing of why or what to do while Safe', async () => {
    stubFetch({
      'GET /api/devices': () =>
        jsonResponse(200, paged({ devices: [liveDevice({ risk_band: 'SAFE', risk_score: 1.2 })] })),
    });
    renderWithProviders(<MonitoringPage />, { auth: owner() });
    const card = await findCard('Biscuit collar');
    expect(safeZone(card)).toHaveTextContent(/^Safe$/);
    expect(card.queryByText('What to do and why')).not.toBeInTheDocument();
    expect(card.queryByText(/Heat risk/)).not.toBeInTheDocument();
    expect(card.queryByRole('link', { name: 'Find an emergency vet' })).not.toBeInTheDocument();
  });

  it('follows the level live: a reading whose values barely move can still raise it', async () => {
    const device = liveDevice({ risk_band: 'SAFE', risk_score: 1 });
    stubFetch({ 'GET /api/devices': () => jsonResponse(200, paged({ devices: [device] })) });
    const { queryClient } = renderWithProviders(<MonitoringPage />, { auth: owner() });
    const card = await findCard('Biscuit collar');
    expect(safeZone(card)).toHaveTextContent(/^Safe$/);
    stop = await openFakeStream(queryClient);
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));

    const reading = makeReading({
      temperature: 31.4,
      humidity: 55,
      status: 'CRITICAL',
      threshold_status: 'SAFE',
      risk_band: 'CRITICAL',
      risk_score: 9,
      risk_reasons: [
        'collar temperature climbing steadily while Biscuit is still: the pattern of a parked car',
      ],
    });
    await act(async () => {
      sendReading(device.id, reading);
      await vi.advanceTimersByTimeAsync(10);
    });
    await waitFor(() => expect(safeZone(card)).toHaveTextContent(/^Critical$/));
    expect(card.getAllByText(/the pattern of a parked car$/)).not.toHaveLength(0);
    expect(
      card.getByText('Cool first: pour cool water over the body and fan it, now.'),
    ).toBeInTheDocument();
  });

  it('says why and what to do once when a heat alert is open, the alert one line with Resolve', async () => {
    const device = modelDanger();
    stubFetch({
      'GET /api/devices': () => jsonResponse(200, paged({ devices: [device] })),
      'GET /api/alerts?resolved=false&limit=100': () =>
        jsonResponse(200, {
          alerts: [
            makeAlert(
              {
                id: '40000000-0000-4000-8000-000000000002',
                opened_at: ago(60),
                reading_at: ago(60),
                peak_temperature_celsius: 31.4,
                peak_heat_index_f: 95,
                reasons,
              },
              device,
            ),
          ],
          total: 1,
        }),
    });
    renderWithProviders(<MonitoringPage />, { auth: owner() });
    const card = await findCard('Biscuit collar');
    const banner = await card.findByRole('alert');
    expect(banner).toHaveTextContent('Danger heat alert');
    expect(within(banner).getByRole('button', { name: /^Resolve\b/ })).toBeInTheDocument();
    expect(card.getAllByText(reasons[0]!)).toHaveLength(1);
    expect(card.getAllByText('Call your vet.')).toHaveLength(1);
    expect(card.getAllByRole('link', { name: 'Find an emergency vet' })).toHaveLength(1);
  });

  it('gives a higher heat alert’s first aid when the level now is lower', async () => {
    const device = liveDevice({
      vitals_status: 'WARNING',
      threshold_status: 'SAFE',
      risk_band: 'WARNING',
      risk_score: 5,
      risk_reasons: reasons,
    });
    stubFetch({
      'GET /api/devices': () => jsonResponse(200, paged({ devices: [device] })),
      'GET /api/alerts?resolved=false&limit=100': () =>
        jsonResponse(200, {
          alerts: [
            makeAlert(
              {
                id: '40000000-0000-4000-8000-000000000003',
                level: 'CRITICAL',
                opened_at: ago(60),
                reading_at: ago(60),
                peak_temperature_celsius: 41,
                peak_heat_index_f: 106,
                reasons: [
                  'collar temperature 105.8°F is at or above the critical threshold of 105°F',
                ],
              },
              device,
            ),
          ],
          total: 1,
        }),
    });
    renderWithProviders(<MonitoringPage />, { auth: owner() });
    const card = await findCard('Biscuit collar');
    expect(await card.findByRole('alert')).toHaveTextContent('Critical heat alert');
    expect(safeZone(card)).toHaveTextContent(/^Warning$/);
    // The why is the reading's shown (Warning); the alert's reasons are apart, named as its.
    expect(
      card.getByText(
        'Flat-faced breed with a high published heat risk (French Bulldog) · Exercise for 25 minutes',
      ),
    ).toBeInTheDocument();
    expect(card.getByText('Why the alert reached Critical').nextElementSibling).toHaveTextContent(
      'collar temperature 105.8°F is at or above the critical threshold of 105°F',
    );
    expect(
      card.getByText('Cool first: pour cool water over the body and fan it, now.'),
    ).toBeInTheDocument();
    expect(card.queryByText('Offer small sips of cool water.')).not.toBeInTheDocument();
    expect(card.getAllByRole('link', { name: 'Find an emergency vet' })).toHaveLength(1);
  });

  it('dims a stale level (Disconnected), while an open heat alert stays with what to do', async () => {
    const stale = modelDanger({ vitals_recorded_at: ago(600) });
    const quiet = modelDanger({
      id: '10000000-0000-4000-8000-0000000000ff',
      device_name: 'Pepper collar',
      device_id: 'PET-PP01',
      vitals_recorded_at: ago(600),
    });
    stubFetch({
      'GET /api/devices': () => jsonResponse(200, paged({ devices: [stale, quiet] })),
      'GET /api/alerts?resolved=false&limit=100': () =>
        jsonResponse(200, {
          alerts: [makeAlert({ level: 'DANGER', opened_at: ago(700), reasons }, stale)],
          total: 1,
        }),
    });
    renderWithProviders(<MonitoringPage />, { auth: owner() });
    const pepper = await findCard('Pepper collar');
    expect(pepper.getByText('Disconnected')).toBeInTheDocument();
    const word = safeZone(pepper).querySelector('[data-level]')!;
    expect(word).toHaveAttribute('data-stale', 'true');
    expect(word).toHaveTextContent('Last known Danger');
    expect(word.className).not.toMatch(/orange/);
    expect(pepper.getByText('Updated 10m ago')).toBeInTheDocument();
    expect(pepper.queryByText('What to do and why')).not.toBeInTheDocument();

    const biscuit = await findCard('Biscuit collar');
    expect(await biscuit.findByRole('alert')).toHaveTextContent('Danger heat alert');
    expect(biscuit.getByText('What to do and why')).toBeInTheDocument();
    // The dog with an open alert comes first.
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Biscuit collar',
      'Pepper collar',
    ]);
  });

  it('says the same why after a reload made the reading stale: the reading’s own, not the reasons the alert rose on', async () => {
    // Live at 41.5 °C the thresholds said Critical; the alert rose to Critical on an earlier
    // 35.0 °C reading and keeps that reading's reasons.
    const critical = liveDevice({
      temperature_celsius: 41.5,
      vitals_status: 'CRITICAL',
      threshold_status: 'CRITICAL',
      risk_band: 'DANGER',
      risk_reasons: [
        'extreme heat at the collar, about 32× the risk',
        'flat-faced breed with a high published heat risk (Pug), about 3× the risk',
      ],
      vitals_recorded_at: ago(180),
    });
    const resolvedToo = {
      ...critical,
      id: '10000000-0000-4000-8000-0000000000fe',
      device_name: 'Pepper collar',
      device_id: 'PET-PP02',
    };
    stubFetch({
      'GET /api/devices': () => jsonResponse(200, paged({ devices: [critical, resolvedToo] })),
      'GET /api/alerts?resolved=false&limit=100': () =>
        jsonResponse(200, {
          alerts: [
            makeAlert(
              {
                level: 'CRITICAL',
                opened_at: ago(400),
                reasons: [
                  'heat index 43 °C (109 °F) at the collar, about 20× the risk',
                  'flat-faced breed with a high published heat risk (Pug), about 3× the risk',
                ],
              },
              critical,
            ),
          ],
          total: 1,
        }),
    });
    renderWithProviders(<MonitoringPage />, { auth: owner() });
    const liveWhy =
      'Collar temperature at or above your critical threshold · Extreme heat at the collar';
    const biscuit = await findCard('Biscuit collar');
    expect(await biscuit.findByRole('alert')).toHaveTextContent('Critical heat alert');
    expect(safeZone(biscuit)).toHaveTextContent('Last known Critical');
    expect(biscuit.getByText(liveWhy)).toBeInTheDocument();
    expect(biscuit.queryByText(/heat index 43 °C/i)).not.toBeInTheDocument();
    // With its alert resolved, the card still says why the level it shows was raised.
    const pepper = await findCard('Pepper collar');
    expect(pepper.getByText(liveWhy)).toBeInTheDocument();
    expect(pepper.queryByText('What to do and why')).not.toBeInTheDocument();
  });

  it('orders the cards worst first: Critical, Danger, Warning, collar off or stale, Safe', async () => {
    const dev = (n: number, name: string, overrides: Partial<Device>) =>
      liveDevice({
        id: `10000000-0000-4000-8000-0000000000${n}0`,
        device_id: `PET-OR0${n}`,
        device_name: name,
        ...overrides,
      });
    stubFetch({
      'GET /api/devices': () =>
        jsonResponse(
          200,
          paged({
            devices: [
              dev(1, 'Amber safe', {}),
              dev(2, 'Bravo stale', { vitals_status: 'CRITICAL', vitals_recorded_at: ago(300) }),
              dev(3, 'Charlie warning', { vitals_status: 'WARNING' }),
              dev(4, 'Delta off', { collar_off: true }),
              dev(5, 'Echo critical', { vitals_status: 'CRITICAL' }),
              dev(6, 'Foxtrot danger', { vitals_status: 'DANGER' }),
              dev(7, 'Able safe', {}),
            ],
          }),
        ),
    });
    renderWithProviders(<MonitoringPage />, { auth: owner() });
    await findCard('Amber safe');
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Echo critical',
      'Foxtrot danger',
      'Charlie warning',
      'Bravo stale',
      'Delta off',
      'Able safe',
      'Amber safe',
    ]);
    expect(safeZone(await findCard('Delta off'))).toHaveTextContent(/^Collar off\?$/);
  });
});

describe('Monitoring, opened from a pushed alert (/monitoring#collar-…)', () => {
  it('scrolls the alert’s collar card into view and focuses it once the readings arrive', async () => {
    const biscuit = liveDevice();
    const spare = liveDevice({ device_name: 'Spare collar', device_id: 'PET-SP01' });
    let answer: () => void = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    stubFetch({
      'GET /api/devices': async () => {
        await answered;
        return jsonResponse(200, paged({ devices: [spare, biscuit] }));
      },
    });
    const scrolled = vi.spyOn(Element.prototype, 'scrollIntoView');
    renderWithProviders(<MonitoringPage />, {
      auth: owner(),
      route: `/monitoring#collar-${biscuit.id}`,
    });
    expect(screen.getByRole('status', { name: 'Loading devices' })).toBeInTheDocument();

    answer();
    const card = (await screen.findByRole('heading', { name: 'Biscuit collar' })).closest(
      '[data-slot="card"]',
    );
    await waitFor(() => expect(card).toHaveFocus());
    expect(card).toHaveAttribute('id', `collar-${biscuit.id}`);
    expect(scrolled.mock.contexts).toEqual([card]);
  });

  it('leaves focus and scrolling alone without one', async () => {
    const biscuit = liveDevice();
    stubFetch({ 'GET /api/devices': () => jsonResponse(200, paged({ devices: [biscuit] })) });
    const scrolled = vi.spyOn(Element.prototype, 'scrollIntoView');
    renderWithProviders(<MonitoringPage />, { auth: owner(), route: '/monitoring' });
    const card = (await screen.findByRole('heading', { name: 'Biscuit collar' })).closest(
      '[data-slot="card"]',
    );
    expect(card).toHaveAttribute('id', `collar-${biscuit.id}`);
    expect(card).not.toHaveFocus();
    expect(scrolled).not.toHaveBeenCalled();
  });
});
