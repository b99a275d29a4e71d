import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import type { Device } from '@pawguard/shared';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch } from '@/testing/fixtures';
import { makeDevice, makeReading } from '@/testing/devices';
import { FakeEventSource, openFakeStream, sendReading } from '@/testing/fake-event-source';
import { MonitoringPage } from './monitoring-page';

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

const owner = () => fakeAuth(makeUser({ name: 'Riley' }));

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
    expect(first.getByText('31.4°C')).toBeInTheDocument();
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
    expect(spare.getByText('Danger')).toBeInTheDocument();
    expect(spare.queryByText('Heart rate')).not.toBeInTheDocument();
    expect(spare.queryByText('Activity level')).not.toBeInTheDocument();
    expect(spare.getByRole('meter', { name: 'Battery' })).toHaveAttribute('data-level', 'critical');
    expect(lastUpdated()).toBe(new Date(NOW).toLocaleTimeString());
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
    expect(card.getByText('2m ago')).toBeInTheDocument();
    expect(calls).toHaveLength(1);
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
    renderWithProviders(<MonitoringPage />, { auth: owner() });
    expect(
      await screen.findByRole('heading', { name: 'Failed to fetch data' }),
    ).toBeInTheDocument();
    fail = false;
    await userEvent
      .setup({ advanceTimers: vi.advanceTimersByTime })
      .click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await findCard('Biscuit collar')).toBeTruthy();
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
    expect(calls.map((c) => c.url)).toEqual(['/api/devices/all']);
  });

  it("refreshes on Refresh Data with the toast 'Refreshed' / 'Device data updated'", async () => {
    const calls = stubFetch({
      'GET /api/devices': () => jsonResponse(200, paged({ devices: [liveDevice()] })),
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
    expect(calls).toHaveLength(2);
    expect(lastUpdated()).toBe(new Date(NOW + 30_000).toLocaleTimeString());
  });
});
