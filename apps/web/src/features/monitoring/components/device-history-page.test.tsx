import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch, type Routes } from '@/testing/fixtures';
import { makeAlert, makeBacktest, makeDevice, makeHistory, makeReading } from '@/testing/devices';
import { FakeEventSource, openFakeStream, sendReading } from '@/testing/fake-event-source';
import { DeviceHistoryPage } from './device-history-page';
import { browserTimeZone } from '@/lib/auth/time-zone';

const device = makeDevice({
  device_name: 'Biscuit collar',
  device_id: 'PET-BC01',
  dog_name: 'Biscuit',
});
const base = `/api/devices/${device.id}`;
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

function hourOf(temperatures: number[]) {
  return makeHistory(
    '1h',
    temperatures.map((temperature, i) => ({
      t: new Date(
        Math.floor(Date.now() / 60_000) * 60_000 - (temperatures.length - 1 - i) * 60_000,
      ).toISOString(),
      temperature,
      humidity: 50,
    })),
    { from: minutesAgo(60), to: new Date().toISOString() },
  );
}

function stub(overrides: Routes = {}) {
  return stubFetch({
    [`GET ${base}`]: () => jsonResponse(200, { device }),
    [`GET ${base}/vitals/latest`]: () =>
      jsonResponse(200, { vitals: makeReading({ temperature: 30, humidity: 50, heart_rate: 90 }) }),
    [`GET ${base}/history?range=24h`]: () =>
      jsonResponse(
        200,
        makeHistory(
          '24h',
          [
            { t: minutesAgo(120), temperature: 25, humidity: 40, heart_rate: 80 },
            { t: minutesAgo(60), temperature: 35, humidity: 60, heart_rate: 100 },
          ],
          { bucket_seconds: 300, from: minutesAgo(1440), to: new Date().toISOString() },
        ),
      ),
    [`GET ${base}/history?range=1h`]: () => jsonResponse(200, hourOf([30, 31])),
    [`GET ${base}/history?range=7d`]: () =>
      jsonResponse(200, makeHistory('7d', [], { bucket_seconds: 1800 })),
    [`GET ${base}/risk/backtest?days=7`]: () => jsonResponse(200, makeBacktest()),
    ...overrides,
  });
}

const show = (route = `/devices/${device.id}/history`, user = makeUser()) =>
  renderWithProviders(<DeviceHistoryPage deviceId={device.id} />, {
    auth: fakeAuth(user),
    route,
  });

let stop: (() => void) | null = null;
beforeEach(() => {
  FakeEventSource.reset();
  // Recharts measures its container; jsdom has no layout, which it reports by console.warn.
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  stop?.();
  stop = null;
});

describe('device history', () => {
  it('lists past alerts with the peak in °C and °F', async () => {
    stub({
      [`GET ${base}/alerts?resolved=true&limit=100`]: () =>
        jsonResponse(200, {
          alerts: [
            makeAlert(
              {
                type: 'heat',
                level: 'CRITICAL',
                peak_temperature_celsius: 36.4,
                resolved: true,
                resolved_at: minutesAgo(5),
                resolved_by: 'condition',
              },
              device,
            ),
          ],
          total: 1,
        }),
    });
    show();
    expect(await screen.findByText('Heat · Critical, peak 36.4°C / 97.5°F')).toBeInTheDocument();
  });

  it('lists a past alert from a late backlog at the times its readings were taken', async () => {
    const taken = '2025-06-20T10:00:00.000Z';
    const ended = '2025-06-20T11:00:00.000Z';
    const uploaded = minutesAgo(5);
    stub({
      [`GET ${base}/alerts?resolved=true&limit=100`]: () =>
        jsonResponse(200, {
          alerts: [
            makeAlert(
              {
                level: 'WARNING',
                resolved: true,
                opened_at: uploaded,
                reading_at: taken,
                resolved_at: uploaded,
                resolved_reading_at: ended,
                resolved_by: 'condition',
              },
              device,
            ),
          ],
          total: 1,
        }),
    });
    show();
    const item = (await screen.findByText(/^Heat · Warning/)).closest('li')!;
    expect([...item.querySelectorAll('time')].map((t) => t.getAttribute('datetime'))).toEqual([
      taken,
      ended,
    ]);
  });

  it("gives past alerts' times on the account's clock, and names its zone when it is not the browser's", async () => {
    // Auckland, 12 hours ahead of UTC in June: its dates differ from the browser's (UTC here).
    const zone = browserTimeZone() === 'Pacific/Auckland' ? 'Asia/Kolkata' : 'Pacific/Auckland';
    stub({
      [`GET ${base}/alerts?resolved=true&limit=100`]: () =>
        jsonResponse(200, {
          alerts: [
            makeAlert(
              {
                level: 'WARNING',
                resolved: true,
                reading_at: '2025-06-20T14:00:00.000Z',
                resolved_reading_at: '2025-06-20T14:30:00.000Z',
                resolved_by: 'condition',
              },
              device,
            ),
          ],
          total: 1,
        }),
    });
    show(undefined, makeUser({ time_zone: zone }));
    const item = (await screen.findByText(/^Heat · Warning/)).closest('li')!;
    const [from, to] = [...item.querySelectorAll('time')].map((t) => t.textContent);
    if (zone === 'Pacific/Auckland') {
      expect(from).toMatch(/Jun 21, 2025.*2:00/);
      expect(to).toMatch(/Jun 21, 2025.*2:30/);
    } else {
      expect(from).toMatch(/Jun 20, 2025.*7:30/);
      expect(to).toMatch(/Jun 20, 2025.*8:00/);
    }
    // Once, above the list.
    const card = item.closest('ul')!.parentElement!;
    expect(within(card).getByText(new RegExp(`^Times in ${zone}`))).toBeInTheDocument();
  });

  it('says when the open alerts could not be loaded, and then never calls the heat risk low', async () => {
    stub({
      [`GET ${base}/vitals/latest`]: () =>
        jsonResponse(200, {
          vitals: makeReading({ temperature: 30, humidity: 50, risk_band: 'SAFE', risk_score: 1 }),
        }),
      [`GET ${base}/alerts?resolved=false&limit=100`]: () =>
        jsonResponse(500, { error: 'Something went wrong on our side. Please try again.' }),
    });
    show();
    expect(await screen.findByText('Alerts could not be loaded.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Load alerts again' })).toBeEnabled();
    expect(screen.queryByText('Heat risk: low')).toBeNull();
  });

  it('shows the device, its latest reading and the last 24 hours with the owner’s thresholds', async () => {
    stub();
    show();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Biscuit collar' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Readings history of PET-BC01, on Biscuit.')).toBeInTheDocument();
    expect(await screen.findByText('30.0°C')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: '24 hours' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByText('Warning 29.4°C / 85.0°F')).toBeInTheDocument();
    expect(screen.getByText('Critical 40.6°C / 105.0°F')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Average 30.0°C / 86.0°F; lowest 25.0°C / 77.0°F, highest 35.0°C / 95.0°F over the last 24 hours.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Humidity' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Heart rate (bpm)' })).toBeInTheDocument();
  });

  it('draws and words temperature °F first for an owner who reads °F first', async () => {
    stub();
    renderWithProviders(<DeviceHistoryPage deviceId={device.id} />, {
      route: `/devices/${device.id}/history`,
      auth: fakeAuth(makeUser({ temperature_unit: 'F' })),
    });
    expect(await screen.findByText('Warning 85.0°F / 29.4°C')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Average 86.0°F / 30.0°C; lowest 77.0°F / 25.0°C, highest 95.0°F / 35.0°C over the last 24 hours.',
      ),
    ).toBeInTheDocument();
    expect(await screen.findByText('86.0°F')).toBeInTheDocument();
  });

  it('shows the latest reading’s level, why, what to do, and what heat-risk adds over the last 7 days', async () => {
    stub({
      [`GET ${base}/vitals/latest`]: () =>
        jsonResponse(200, {
          vitals: makeReading({
            temperature: 30,
            humidity: 70,
            status: 'WARNING',
            threshold_status: 'SAFE',
            risk_band: 'WARNING',
            risk_score: 5,
            risk_reasons: ['a humid day at the collar, about 3× the risk'],
          }),
        }),
      [`GET ${base}/risk/backtest?days=7`]: () =>
        jsonResponse(
          200,
          makeBacktest({
            readings: 400,
            thresholds: { alerts: 0, minutes_elevated: 0, highest: 'SAFE' },
            model: { alerts: 2, minutes_elevated: 40, highest: 'WARNING' },
            model_only_alerts: 2,
          }),
        ),
    });
    show();
    const latest = within(await screen.findByRole('region', { name: 'Latest reading' }));
    expect(await latest.findByText('Warning')).toHaveAttribute('data-level', 'WARNING');
    expect(latest.getByText('A humid day at the collar')).toBeInTheDocument();
    const details = latest.getByText('What to do and why').closest('details')!;
    expect(details).toHaveTextContent('a humid day at the collar, about 3× the risk');
    expect(details).toHaveTextContent('Stop exercise and move to shade or indoors.');
    expect(
      await screen.findByText('Last 7 days: 2 alerts the thresholds alone would have missed.'),
    ).toBeInTheDocument();
  });

  it('switches range from the keyboard, fetching that range', async () => {
    const calls = stub();
    show();
    const user = userEvent.setup();
    const tab = await screen.findByRole('tab', { name: '24 hours' });
    await user.click(tab);
    await user.keyboard('{ArrowLeft}');
    await waitFor(() =>
      expect(screen.getByRole('tab', { name: 'Last hour' })).toHaveAttribute(
        'aria-selected',
        'true',
      ),
    );
    expect(await screen.findAllByText(/over the last hour\.$/)).not.toHaveLength(0);
    await user.keyboard('{ArrowRight}');
    await waitFor(() =>
      expect(screen.getByRole('tab', { name: '24 hours' })).toHaveAttribute(
        'aria-selected',
        'true',
      ),
    );
    await user.keyboard('{ArrowRight}');
    expect(
      await screen.findByRole('heading', { name: 'No readings in the last 7 days' }),
    ).toBeInTheDocument();
    expect(calls.map((c) => c.url)).toEqual(
      expect.arrayContaining([`${base}/history?range=1h`, `${base}/history?range=7d`]),
    );
  });

  it('opens a new collar’s history on the last hour, where its readings are, and keeps that in the address', async () => {
    const fresh = { ...device, vitals_recorded_at: minutesAgo(1) };
    const calls = stub({
      [`GET ${base}`]: () => jsonResponse(200, { device: fresh }),
      [`GET ${base}/history?range=24h`]: () =>
        jsonResponse(
          200,
          makeHistory(
            '24h',
            [
              { t: minutesAgo(20), temperature: 30 },
              { t: minutesAgo(3), temperature: 31 },
            ],
            {
              bucket_seconds: 180,
            },
          ),
        ),
    });
    show();
    await waitFor(() =>
      expect(screen.getByRole('tab', { name: 'Last hour' })).toHaveAttribute(
        'aria-selected',
        'true',
      ),
    );
    await waitFor(() => expect(calls.map((c) => c.url)).toContain(`${base}/history?range=1h`));
    // The spec's range options stay, and any of them is a click away.
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Last hour',
      '24 hours',
      '7 days',
    ]);
  });

  it('opens on 7 days when the collar’s readings are all older than a day', async () => {
    const quiet = { ...device, vitals_recorded_at: minutesAgo(3 * 1440) };
    stub({
      [`GET ${base}`]: () => jsonResponse(200, { device: quiet }),
      [`GET ${base}/history?range=24h`]: () => jsonResponse(200, makeHistory('24h', [])),
    });
    show();
    await waitFor(() =>
      expect(screen.getByRole('tab', { name: '7 days' })).toHaveAttribute('aria-selected', 'true'),
    );
  });

  it('opens on the range in the address, and shows the readings as a table on request', async () => {
    const calls = stub();
    show(`/devices/${device.id}/history?range=1h`);
    expect(await screen.findByRole('tab', { name: 'Last hour' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Show as table' }));
    expect(screen.getAllByRole('row')).toHaveLength(3);
    expect(screen.getByRole('cell', { name: '31.0°C / 87.8°F' })).toBeInTheDocument();
    // The address named the range: the day is not fetched to judge one.
    expect(calls.map((c) => c.url)).not.toContain(`${base}/history?range=24h`);
  });

  it('tells 10-second buckets of the last hour apart in the table, and says how long they are', async () => {
    const at = Date.parse('2025-07-01T11:48:00.000Z');
    stub({
      [`GET ${base}/history?range=1h`]: () =>
        jsonResponse(
          200,
          makeHistory(
            '1h',
            [
              { t: new Date(at).toISOString(), temperature: 30 },
              { t: new Date(at + 10_000).toISOString(), temperature: 29 },
            ],
            { bucket_seconds: 10 },
          ),
        ),
    });
    show(`/devices/${device.id}/history?range=1h`);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Show as table' }));
    const table = screen.getByRole('table');
    expect(table).toHaveAccessibleName('Averages per 10-second period, newest first');
    const times = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell')[0]!.textContent);
    expect(times).toHaveLength(2);
    expect(new Set(times).size).toBe(2);
  });

  it('keeps the last hour live: a reading from the stream joins the chart', async () => {
    stub();
    const { queryClient } = show(`/devices/${device.id}/history?range=1h`);
    expect(await screen.findByText(/highest 31\.0°C \/ 87\.8°F/)).toBeInTheDocument();
    stop = await openFakeStream(queryClient);
    // Opening fetches again what was loaded before it; let that settle first.
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    const reading = makeReading({ temperature: 40, humidity: 50 });
    await act(async () => sendReading(device.id, reading));
    expect(await screen.findByText(/highest 40\.0°C \/ 104\.0°F/)).toBeInTheDocument();
    expect(await screen.findByText('40.0°C')).toBeInTheDocument();
  });

  it("says 'Failed to fetch data' with Try Again when the history cannot be read", async () => {
    let fail = true;
    stub({
      [`GET ${base}/history?range=24h`]: () =>
        fail ? jsonResponse(500, { error: 'Boom' }) : jsonResponse(200, makeHistory('24h', [])),
    });
    show();
    expect(
      await screen.findByRole('heading', { name: 'Failed to fetch data' }),
    ).toBeInTheDocument();
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try Again' }));
    expect(
      await screen.findByRole('heading', { name: 'No readings in the last 24 hours' }),
    ).toBeInTheDocument();
  });

  it('says the device is not found for an id that is not the owner’s', async () => {
    stub({ [`GET ${base}`]: () => jsonResponse(404, { error: 'Device not found' }) });
    show();
    expect(await screen.findByRole('heading', { name: 'Device not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Monitoring' })).toHaveAttribute(
      'href',
      '/monitoring',
    );
  });
});
