import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { makeAlert, makeDevice } from '@/testing/devices';
import {
  LevelWord,
  WhyAndWhatToDo,
  deviceReading,
  reasonsFor,
  shortReason,
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

  it('gives the open alert’s reasons alone while the alert is higher than the level now', () => {
    const alert = makeAlert({
      level: 'CRITICAL',
      reasons: ['collar temperature 106.0°F is at or above the critical threshold of 105°F'],
    });
    render(
      <MemoryRouter>
        <WhyAndWhatToDo reading={hot} alert={alert} now={NOW} />
      </MemoryRouter>,
    );
    expect(reasonsShown()).toEqual([
      'collar temperature 106.0°F is at or above the critical threshold of 105°F',
    ]);
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
