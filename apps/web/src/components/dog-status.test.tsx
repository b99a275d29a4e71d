import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { makeAlert, makeDevice } from '@/testing/devices';
import {
  DeviceLevelWord,
  LevelWord,
  WhyAndWhatToDo,
  deviceReading,
  reasonsFor,
  shortReason,
  showsAboveSafe,
  whyLine,
  worry,
  worstFirst,
} from './dog-status';

const NOW = Date.parse('2025-07-01T12:00:00.000Z');
const ago = (s: number) => new Date(NOW - s * 1000).toISOString();
const reading = (overrides: Parameters<typeof makeDevice>[0]) =>
  deviceReading(makeDevice({ vitals_recorded_at: ago(5), vitals_status: 'SAFE', ...overrides }));

describe('worst first', () => {
  it('ranks Critical, Danger, Warning, then a collar off or a stale reading, then Safe, then no collar', () => {
    const dogs = [
      { name: 'Safe', r: reading({}) },
      { name: 'None', r: null },
      { name: 'Stale', r: reading({ vitals_status: 'CRITICAL', vitals_recorded_at: ago(600) }) },
      { name: 'Off', r: reading({ collar_off: true }) },
      { name: 'Warning', r: reading({ vitals_status: 'WARNING' }) },
      { name: 'Critical', r: reading({ vitals_status: 'CRITICAL' }) },
      { name: 'Danger', r: reading({ vitals_status: 'DANGER' }) },
    ];
    expect(
      worstFirst(
        dogs,
        (d) => worry(d.r, [], NOW),
        (d) => d.name,
      ).map((d) => d.name),
    ).toEqual(['Critical', 'Danger', 'Warning', 'Off', 'Stale', 'Safe', 'None']);
  });

  it('ranks a silent collar with an open heat alert by the alert', () => {
    const stale = reading({ vitals_recorded_at: ago(600) });
    expect(worry(stale, [makeAlert({ level: 'CRITICAL' })], NOW)).toBe(
      worry(reading({ vitals_status: 'CRITICAL' }), [], NOW),
    );
  });
});

describe('why', () => {
  it('says a reason in a few words for the one line, the odds left for the details', () => {
    expect(shortReason('flat-faced breed (Pug), about 2× the risk')).toBe('Flat-faced breed (Pug)');
    expect(shortReason('heart rate high (150 bpm) for 12 minutes, about 1.4× the risk')).toBe(
      'Heart rate high (150 bpm) for 12 minutes',
    );
    expect(
      whyLine([
        'exercise for 25 minutes, about 4× the risk',
        'flat-faced breed (Pug), about 2× the risk',
        'third',
      ]),
    ).toBe('Exercise for 25 minutes · Flat-faced breed (Pug)');
  });

  it('leads with the judge that set the level', () => {
    const model = ['exercise for 25 minutes, about 4× the risk'];
    expect(
      reasonsFor(
        reading({ threshold_status: 'WARNING', risk_band: 'DANGER', risk_reasons: model }),
      ),
    ).toEqual([...model, 'collar temperature at or above your warning threshold']);
    expect(
      reasonsFor(
        reading({ threshold_status: 'CRITICAL', risk_band: 'DANGER', risk_reasons: model }),
      ),
    ).toEqual(['collar temperature at or above your critical threshold', ...model]);
  });
});

describe('what to do and why', () => {
  const reasonsShown = () =>
    within(screen.getByText('Why', { exact: true }).nextElementSibling as HTMLElement)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
  const hot = reading({ vitals_status: 'WARNING', threshold_status: 'WARNING' });

  const whyLineShown = () => document.querySelector('[data-why-line]')?.textContent ?? null;

  it('gives the reading’s reasons as the why, and a higher alert’s apart, named as the alert’s', () => {
    const alert = makeAlert({
      level: 'CRITICAL',
      reasons: ['collar temperature 106.0°F is at or above the critical threshold of 105°F'],
    });
    render(
      <MemoryRouter>
        <WhyAndWhatToDo reading={hot} alert={alert} now={NOW} />
      </MemoryRouter>,
    );
    expect(whyLineShown()).toBe('Collar temperature at or above your warning threshold');
    expect(reasonsShown()).toEqual(['collar temperature at or above your warning threshold']);
    const alertWhy = screen.getByText('Why the alert reached Critical').nextElementSibling!;
    expect(within(alertWhy as HTMLElement).getByRole('listitem')).toHaveTextContent(
      'collar temperature 106.0°F is at or above the critical threshold of 105°F',
    );
    // What to do follows the higher alert.
    expect(
      screen.getByText('Cool first: pour cool water over the body and fan it, now.'),
    ).toBeInTheDocument();
  });

  describe('a reading that goes stale (a reload 2 minutes on) keeps its own why', () => {
    // Live at 41.5 °C the thresholds said Critical; the alert rose on an earlier 35.0 °C
    // reading and keeps that reading's reasons.
    const critical = (recordedAgo: number) =>
      reading({
        vitals_recorded_at: ago(recordedAgo),
        vitals_status: 'CRITICAL',
        threshold_status: 'CRITICAL',
        risk_band: 'DANGER',
        temperature_celsius: 41.5,
        risk_reasons: [
          'extreme heat at the collar, about 32× the risk',
          'flat-faced breed with a high published heat risk (Pug), about 3× the risk',
        ],
      });
    const escalation = makeAlert({
      level: 'CRITICAL',
      reasons: [
        'heat index 43 °C (109 °F) at the collar, about 20× the risk',
        'flat-faced breed with a high published heat risk (Pug), about 3× the risk',
      ],
    });
    const LIVE_WHY =
      'Collar temperature at or above your critical threshold · Extreme heat at the collar';

    it('says the same why as live, not the reasons the alert rose on', () => {
      const { rerender } = render(
        <MemoryRouter>
          <WhyAndWhatToDo reading={critical(5)} alert={escalation} now={NOW} />
        </MemoryRouter>,
      );
      expect(whyLineShown()).toBe(LIVE_WHY);
      rerender(
        <MemoryRouter>
          <WhyAndWhatToDo reading={critical(180)} alert={escalation} now={NOW} />
        </MemoryRouter>,
      );
      expect(whyLineShown()).toBe(LIVE_WHY);
      expect(screen.queryByText(/heat index 43 °C/i)).not.toBeInTheDocument();
      // The open alert still says what to do.
      expect(screen.getByText('What to do and why')).toBeInTheDocument();
    });

    it('keeps the why once the alert is resolved, with no first aid for a level not known now', () => {
      render(
        <MemoryRouter>
          <WhyAndWhatToDo reading={critical(180)} alert={undefined} now={NOW} />
        </MemoryRouter>,
      );
      expect(whyLineShown()).toBe(LIVE_WHY);
      expect(screen.queryByText('What to do and why')).not.toBeInTheDocument();
      expect(screen.queryByText('What to do now')).not.toBeInTheDocument();
      expect(reasonsShown()).toEqual([
        'collar temperature at or above your critical threshold',
        'extreme heat at the collar, about 32× the risk',
        'flat-faced breed with a high published heat risk (Pug), about 3× the risk',
      ]);
    });
  });

  it('gives the reading’s reasons alone while the level now is as high as the alert', () => {
    const alert = makeAlert({
      level: 'WARNING',
      reasons: ['collar temperature 86.0°F is at or above the warning threshold of 85°F'],
    });
    render(
      <MemoryRouter>
        <WhyAndWhatToDo reading={hot} alert={alert} now={NOW} />
      </MemoryRouter>,
    );
    expect(reasonsShown()).toEqual(['collar temperature at or above your warning threshold']);
  });
});

describe('LevelWord', () => {
  it('says one word in its colour, a stale level dimmed, and a worn-off collar "Collar off?"', () => {
    const { rerender } = render(<LevelWord level="DANGER" stale={false} collarOff={false} />);
    expect(screen.getByText('Danger')).toHaveClass('bg-orange-50');
    rerender(<LevelWord level="DANGER" stale collarOff={false} />);
    expect(screen.getByText('Last known').parentElement).toHaveAttribute('data-stale', 'true');
    expect(screen.getByText('Last known').parentElement).not.toHaveClass('bg-orange-50');
    rerender(<LevelWord level="SAFE" stale={false} collarOff />);
    expect(screen.getByText('Collar off?')).toHaveAttribute('data-collar-off', 'true');
  });
});

describe('DeviceLevelWord', () => {
  afterEach(() => vi.useRealTimers());

  it('says "Last known", dimmed, from the moment the reading is 2 minutes old, however seldom the screen’s clock ticks', () => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
    const device = makeDevice({ vitals_status: 'CRITICAL', vitals_recorded_at: ago(119) });
    // The screen's clock stays at NOW (the admin's list ticks every 30 s).
    render(<DeviceLevelWord device={device} now={NOW} />);
    const word = () => document.querySelector('[data-level]')!;
    expect(word()).not.toHaveAttribute('data-stale');
    expect(word()).toHaveTextContent(/^Critical$/);
    act(() => vi.advanceTimersByTime(1_000));
    expect(word()).toHaveAttribute('data-stale', 'true');
    expect(word()).toHaveTextContent('Last known Critical');
  });

  it('says "Last known" at once for a reading already old', () => {
    render(
      <DeviceLevelWord
        device={makeDevice({ vitals_status: 'CRITICAL', vitals_recorded_at: ago(300) })}
        now={NOW}
      />,
    );
    expect(screen.getByText('Last known').parentElement).toHaveAttribute('data-stale', 'true');
  });

  it('says both the level and "Collar off?" for a collar judged off whose heat raises it, as the owner’s card does', () => {
    const { unmount } = render(
      <DeviceLevelWord
        device={makeDevice({
          vitals_status: 'CRITICAL',
          collar_off: true,
          vitals_recorded_at: ago(5),
        })}
        now={NOW}
      />,
    );
    expect(document.querySelector('[data-level]')).toHaveTextContent(/^Critical$/);
    expect(screen.getByText('Collar off?')).toBeInTheDocument();
    unmount();
    // Below a raised level, the word alone says it.
    render(
      <DeviceLevelWord
        device={makeDevice({ vitals_status: 'SAFE', collar_off: true, vitals_recorded_at: ago(5) })}
        now={NOW}
      />,
    );
    expect(screen.getAllByText('Collar off?')).toHaveLength(1);
  });
});

describe('above Safe on the card', () => {
  it('is a raised level, now or last known, or an open heat alert', () => {
    expect(showsAboveSafe(reading({ vitals_status: 'WARNING' }), [])).toBe(true);
    expect(
      showsAboveSafe(reading({ vitals_status: 'CRITICAL', vitals_recorded_at: ago(600) }), []),
    ).toBe(true);
    expect(showsAboveSafe(reading({}), [makeAlert({ level: 'DANGER' })])).toBe(true);
    expect(showsAboveSafe(reading({}), [makeAlert({ level: 'DANGER', resolved: true })])).toBe(
      false,
    );
    expect(showsAboveSafe(reading({}), [])).toBe(false);
    expect(showsAboveSafe(null, undefined)).toBe(false);
  });
});
