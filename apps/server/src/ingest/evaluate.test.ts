import { describe, expect, it } from 'vitest';
import { fahrenheitToCelsius, parseRiskState, type ParsedReading } from '@pawguard/shared';
import type { IngestStateRow } from '../repositories/devices-repository.js';
import { evaluate } from './evaluate.js';
import { toIngestDevice } from './ingest-device.js';

const at = (s: number) => Date.parse('2026-07-01T12:00:00Z') + s * 1000;

/** A collar whose latest reading (a minute before noon) was WARNING by 90 °F / 103 °F. */
function warmCollar() {
  const row = {
    id: 'uuid-1',
    device_id: 'PET-1',
    user_id: 'owner-1',
    status: 'active',
    registration_status: 'active',
    battery_level: 80,
    last_seen: new Date(at(-60)).toISOString(),
    temperature_celsius: fahrenheitToCelsius(91),
    humidity_percent: 20,
    heart_rate: null,
    activity_level: null,
    vitals_status: 'WARNING',
    vitals_recorded_at: new Date(at(-60)).toISOString(),
    battery_alert_armed: 1,
    risk_band: null,
    risk_score: null,
    risk_reasons: null,
    risk_state: null,
    readings_stored: 1,
    dog_name: null,
    dog_breed: null,
    dog_age: null,
    dog_weight: null,
    dog_sex: null,
    dog_body_condition: null,
    dog_health_conditions: null,
    temperature_threshold: 90,
    critical_temperature_threshold: 103,
  } as unknown as IngestStateRow;
  return toIngestDevice(row, 'owner-1', parseRiskState(null));
}

const reading = (f: number): ParsedReading => ({
  temperature: fahrenheitToCelsius(f),
  humidity: 20,
});

describe('evaluate', () => {
  it('judges newer readings in time order from the level held, and a backlog each on its own', () => {
    const device = warmCollar();
    const risk = device.risk;
    // 89.5 °F: below the 90 °F bar to enter WARNING, above the 89 °F bar to stay in it.
    const times = new Map([
      [at(0), reading(89.5)],
      [at(-120), reading(89.5)],
      [at(10), reading(88.5)],
    ]);
    const judged = evaluate(device, times, at(20));
    expect(judged.rows.map((r) => [r.recorded_at, r.status])).toEqual([
      [at(-120), 'SAFE'],
      [at(0), 'WARNING'],
      [at(10), 'SAFE'],
    ]);
    expect(judged.rows.every((r) => r.received_at === at(20) && r.device_uuid === 'uuid-1')).toBe(
      true,
    );
    // Pure: the device is left as it was; the model's new memory is answered.
    expect(device.risk).toBe(risk);
    expect(judged.risk).not.toBe(risk);
  });

  describe("a collar's own news from a backlog sent in several batches (decision 0023)", () => {
    const MIN = 60_000;
    const minute = (m: number) => at(0) + m * MIN;
    const now = minute(180);
    /** Worn (a heart rate, some movement) until `offFrom`, then on a sill: neither. */
    const batch = (from: number, to: number, offFrom: number) =>
      new Map<number, ParsedReading>(
        Array.from({ length: to - from + 1 }, (_, i) => {
          const m = from + i;
          const r: ParsedReading =
            m < offFrom
              ? { temperature: 24, humidity: 50, heart_rate: 90, activity_level: 12 }
              : { temperature: 24, humidity: 50, activity_level: 0 };
          return [minute(m), r];
        }),
      );
    /** The device as a batch ending at minute `m` left it. */
    const after = (device: ReturnType<typeof warmCollar>, m: number, risk: typeof device.risk) => ({
      ...device,
      risk,
      state: {
        ...device.state,
        vitals_recorded_at: new Date(minute(m)).toISOString(),
        last_seen: new Date(now).toISOString(),
      },
      collarOff: { ...device.collarOff, news: null },
    });

    it('an off spell begun in a batch hours old waits, and the batch that ends now tells it', () => {
      const device = warmCollar();
      // Minutes 0-60, 2 hours before now: off from minute 30, judged off 5 minutes later.
      const old = evaluate(device, batch(0, 60, 30), now);
      expect(old.offNews).toBeNull();
      expect(old.risk.offNewsAt).toBe(minute(35));
      // The list that ends now, still off: the spell is told at its newest reading, and its
      // news waits no more.
      const present = evaluate(after(device, 60, old.risk), batch(61, 180, 0), now);
      expect(present.offNews).toEqual({ startedAt: minute(35), tellAt: minute(180) });
      expect(present.risk.offNewsAt).toBeNull();
    });

    it('a spell that ends within the old batches is history: nothing waits, nothing is told', () => {
      const device = warmCollar();
      const old = evaluate(device, batch(0, 60, 30), now);
      // Back on from minute 61: the episode may go on for an hour after the spell ends…
      const brief = evaluate(after(device, 60, old.risk), batch(61, 100, 200), now);
      expect(brief.risk.offSince).toBeNull();
      expect(brief.risk.offNewsAt).toBe(minute(35));
      // …and is history once the collar has been back on longer.
      const back = evaluate(after(device, 100, brief.risk), batch(101, 160, 200), now);
      expect(back.risk.offNewsAt).toBeNull();
      const present = evaluate(after(device, 160, back.risk), batch(161, 180, 200), now);
      expect(present.offNews).toBeNull();
    });

    it('keeps the news while a quiet stretch begun within the hour may join the episode', () => {
      const device = warmCollar();
      const old = evaluate(device, batch(0, 60, 30), now);
      // Back on at 61; quiet again from 120 (under an hour later), the list ending at 122, over
      // an hour after the spell ended but before the quiet is a spell of its own. That list is
      // of the present (58 minutes old), but the collar is on at its end: nothing to tell yet.
      const quiet = evaluate(after(device, 60, old.risk), batch(61, 122, 120), now);
      expect(quiet.risk.offSince).toBeNull();
      expect(quiet.offNews).toBeNull();
      expect(quiet.risk.offNewsAt).toBe(minute(35));
      // The list that ends now: off since 120, the same episode, told once.
      const present = evaluate(after(device, 122, quiet.risk), batch(123, 180, 0), now);
      expect(present.risk.offSince).not.toBeNull();
      expect(present.offNews).toEqual({ startedAt: minute(35), tellAt: minute(180) });
      expect(present.risk.offNewsAt).toBeNull();
    });

    it('a batch of the present judges its own spell: nothing is left waiting', () => {
      const device = warmCollar();
      // Told at once where the spell begins in the last 10 minutes; begun earlier, at the
      // newest reading (a list ending now, the spell 25 minutes old).
      const recent = evaluate(device, batch(160, 180, 170), now);
      expect(recent.offNews).toEqual({ startedAt: minute(175), tellAt: minute(175) });
      const live = evaluate(device, batch(120, 180, 150), now);
      expect(live.offNews).toEqual({ startedAt: minute(155), tellAt: minute(180) });
      expect(live.risk.offNewsAt).toBeNull();
    });
  });
});
