import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeAuth, renderWithProviders } from '@/testing/render';
import { jsonResponse, makeUser, stubFetch } from '@/testing/fixtures';
import { makeBacktest } from '@/testing/devices';
import { backtestSummary, formatMinutes, RiskBacktestPanel } from './risk-backtest-panel';

const DEVICE = '10000000-0000-4000-8000-0000000000ff';
const url = `GET /api/devices/${DEVICE}/risk/backtest?days=7`;

const week = makeBacktest({
  readings: 2016,
  thresholds: { alerts: 1, minutes_elevated: 12, highest: 'WARNING' },
  model: { alerts: 3, minutes_elevated: 95, highest: 'DANGER' },
  model_only_alerts: 2,
});

const show = () =>
  renderWithProviders(<RiskBacktestPanel deviceId={DEVICE} />, { auth: fakeAuth(makeUser()) });

describe('What heat-risk adds', () => {
  it('says in plain words how often each would have alerted, and for how long', async () => {
    stubFetch({ [url]: () => jsonResponse(200, week) });
    show();
    expect(screen.getByRole('heading', { name: 'What heat-risk adds' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Loading the comparison' })).toBeInTheDocument();
    // An owner's summary first; the comparison on demand.
    expect(
      await screen.findByText('Last 7 days: 2 alerts the thresholds alone would have missed.'),
    ).toBeInTheDocument();
    const details = screen.getByText('Details').closest('details')!;
    expect(details.open).toBe(false);
    await userEvent.setup().click(screen.getByText('Details'));
    expect(details.open).toBe(true);
    expect(
      screen.getByText(
        'Over the last 7 days your thresholds alone would have alerted 1 time; with heat risk beside them, 3 times.',
      ),
    ).toBeInTheDocument();
    const row = (name: string) =>
      within(screen.getByRole('rowheader', { name }).closest('tr')!)
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(row('Alerts')).toEqual(['1', '3']);
    expect(row('Time above safe')).toEqual(['12 minutes', '1 h 35 min']);
    expect(row('Highest level')).toEqual(['Warning', 'Danger']);
    expect(screen.getByText(/From 2,016 readings\./)).toBeInTheDocument();
    // Why heat risk may count fewer alerts than the thresholds: the held level joins them.
    expect(screen.getByText(/From 2,016 readings\./)).toHaveTextContent(
      'It holds a raised level until the risk has clearly fallen, and for 5 minutes after, so alerts close together can count as one.',
    );
    expect(screen.queryByText(/can only add alerts/)).toBeNull();
  });

  it('says there is nothing to compare yet when the collar sent no readings', async () => {
    stubFetch({ [url]: () => jsonResponse(200, makeBacktest({ readings: 0 })) });
    show();
    expect(
      await screen.findByText(/No readings in the last 7 days, so there is nothing to compare yet/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByText(/would have missed/)).not.toBeInTheDocument();
  });

  it('says it could not be loaded, and Try Again fetches it again', async () => {
    let fail = true;
    stubFetch({
      [url]: () => (fail ? jsonResponse(500, { error: 'Boom' }) : jsonResponse(200, week)),
    });
    show();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The comparison could not be loaded',
    );
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try Again' }));
    expect(
      await screen.findByText(/2 alerts the thresholds alone would have missed/),
    ).toBeInTheDocument();
  });
});

describe('backtestSummary', () => {
  it('says heat risk added nothing when it did not, and counts one day', () => {
    expect(
      backtestSummary(
        makeBacktest({
          days: 1,
          readings: 10,
          thresholds: { alerts: 2, minutes_elevated: 5, highest: 'CRITICAL' },
          model: { alerts: 2, minutes_elevated: 5, highest: 'CRITICAL' },
        }),
      ),
    ).toBe('Last day: heat risk added no alert to the 2 alerts from your thresholds.');
    expect(backtestSummary(makeBacktest({ readings: 10 }))).toBe(
      'Last 7 days: no heat alerts, from your thresholds or heat risk.',
    );
  });

  it('formats minutes as minutes, then hours and minutes', () => {
    expect(formatMinutes(1)).toBe('1 minute');
    expect(formatMinutes(0)).toBe('0 minutes');
    expect(formatMinutes(120)).toBe('2 h');
    expect(formatMinutes(61)).toBe('1 h 1 min');
  });
});
