import { describe, expect, it } from 'vitest';
import {
  COLLAR_OFF_AFTER_MS,
  RISK_BAND_FLOORS,
  emptyRiskState,
  heatWeight,
  riskStep,
  type RiskAssessment,
  type RiskProfile,
  type RiskReading,
  type RiskState,
} from './heat-risk.js';

// Each case is a collar trace (a reading a minute, as collars send them) that the first
// version of the model judged wrong, judged again.

const MIN = 60_000;
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 6, 15, 9, 0, 0);

type Sample = Omit<RiskReading, 'at'>;
const minutes = (n: number, at: (m: number) => Sample, start: number, everyS = 60) =>
  Array.from({ length: Math.floor((n * 60) / everyS) }, (_, i) => ({
    at: start + i * everyS * 1000,
    ...at((i * everyS) / 60),
  }));

function run(readings: RiskReading[], profile: RiskProfile = {}, state = emptyRiskState()) {
  const out: RiskAssessment[] = [];
  for (const r of readings) {
    const step = riskStep(state, r, profile);
    state = step.state;
    out.push(step.assessment);
  }
  return { out, state };
}
const codes = (a: RiskAssessment) => a.factors.map((f) => f.code);

const frenchie: RiskProfile = { name: 'Biscuit', breed: 'French Bulldog', weightLbs: 26, age: 3 };
const cavalier: RiskProfile = {
  name: 'Rosie',
  breed: 'Cavalier King Charles Spaniel',
  weightLbs: 18,
  age: 12,
  conditions: ['heart'],
};
/** An hour of awake rest at home (up for a minute every quarter of an hour). */
const home = (start: number, temperature = 21, hr = 95) =>
  minutes(
    60,
    (m) => ({
      temperature,
      humidity: 55,
      activity_level: m % 15 === 14 ? 45 : 6,
      heart_rate: m % 15 === 14 ? 110 : hr,
    }),
    start,
  );

describe('1. exercise weighs with the heat', () => {
  it('an ordinary walk at a 16 °C collar is no heat event, for any profile', () => {
    const walk = minutes(
      45,
      () => ({ temperature: 16, humidity: 60, activity_level: 60, heart_rate: 150 }),
      T0,
    );
    for (const dog of [frenchie, cavalier]) {
      const { out } = run(walk, dog, run(home(T0 - 60 * MIN), dog).state);
      expect(out.every((a) => a.band === 'SAFE')).toBe(true);
      expect(out.flatMap(codes)).not.toContain('exertion');
    }
  });

  it('the same walk in the heat counts, and more the hotter it is', () => {
    const walk = (t: number) =>
      minutes(30, () => ({ temperature: t, humidity: 60, activity_level: 60 }), T0);
    const points = (t: number) =>
      run(walk(t), frenchie)
        .out.at(-1)!
        .factors.find((f) => f.code === 'exertion')?.points ?? 0;
    expect(points(24)).toBe(0);
    expect(points(29)).toBeGreaterThan(0);
    expect(points(32)).toBeGreaterThan(points(29));
    expect(points(34)).toBe(2);
    expect(heatWeight(27)).toBe(0);
    expect(heatWeight(31)).toBe(0.5);
    expect(heatWeight(40)).toBe(1);
  });
});

describe('2. raw activity decides when exercise started and stopped', () => {
  it('a 12-minute play stops counting when the dog stops, and never grows after it', () => {
    const play = minutes(
      12,
      () => ({ temperature: 29, humidity: 60, activity_level: 80, heart_rate: 150 }),
      T0,
    );
    const after = minutes(
      15,
      () => ({ temperature: 29, humidity: 60, activity_level: 9, heart_rate: 110 }),
      T0 + 12 * MIN,
    );
    const { out } = run([...play, ...after], frenchie);
    const label = (a: RiskAssessment) => a.factors.find((f) => f.code === 'exertion')?.label;
    expect(label(out[11]!)).toMatch(/for 11 minutes/);
    // A reading later the dog is at rest: the exercise is over (the smoothed activity, which
    // the first version timed it by, is still above 30 here).
    expect(out.slice(play.length + 1).map(label)).toEqual(Array(after.length - 1).fill(undefined));
  });

  it('pauses of a minute or two (a sniff) belong to the walk', () => {
    const walk = minutes(
      25,
      (m) => ({ temperature: 29, humidity: 60, activity_level: m % 6 < 2 ? 12 : 60 }),
      T0,
    );
    const { out } = run(walk, frenchie);
    expect(out.at(-1)!.factors.find((f) => f.code === 'exertion')?.label).toMatch(
      /exercise for 2\d minutes/,
    );
  });

  it('interval play (6 minutes on, 4 off) in humid 28 °C heat counts as the play it is', () => {
    // Fetch without a break is DANGER at 10 minutes of play; a dog does not cool in a pause of
    // a few minutes in warm humid air, so play in bouts must not reach it 20 minutes later.
    // Humid air of 28 °C: the collar of a dog at play reads about 2 °C above it (30 °C, 65 %).
    const fetch = (m: number) => m % 10 < 6;
    const play = minutes(
      40,
      (m) => ({ temperature: 30, humidity: 65, activity_level: fetch(m) ? 80 : 8 }),
      T0,
    );
    const { out } = run(play, frenchie);
    const firstDanger = out.findIndex((a) => a.band === 'DANGER' || a.band === 'CRITICAL');
    const playedBy = play.slice(0, firstDanger + 1).filter((r) => fetch((r.at - T0) / MIN));
    expect(firstDanger).toBeGreaterThan(-1);
    expect(playedBy.length).toBeLessThanOrEqual(12);
    expect(out[firstDanger]!.factors.find((f) => f.code === 'exertion')?.label).toMatch(
      /hard exercise for 1\d of the last 20 minutes/,
    );
    // The same play without a break, for comparison: DANGER at 10 minutes.
    const nonstop = minutes(12, () => ({ temperature: 30, humidity: 65, activity_level: 80 }), T0);
    expect(run(nonstop, frenchie).out.findIndex((a) => a.band === 'DANGER')).toBe(10);
  });
});

describe('3. every input expires when the collar stops reporting it', () => {
  it('a heart rate last reported minutes ago no longer scores', () => {
    const hard = minutes(
      20,
      () => ({ temperature: 27, humidity: 55, activity_level: 15, heart_rate: 190 }),
      T0,
    );
    const { out: during, state } = run(hard, cavalier, run(home(T0 - 60 * MIN), cavalier).state);
    expect(codes(during.at(-1)!)).toContain('heart-rate');
    const blind = minutes(
      30,
      () => ({ temperature: 27, humidity: 55, activity_level: 15 }),
      T0 + 20 * MIN,
    );
    const { out, state: after } = run(blind, cavalier, state);
    expect(out.slice(3).flatMap(codes)).not.toContain('heart-rate');
    expect(after.hr).toBeNull();
  });
});

/** A collar worn for an hour, then off: no heart rate, no movement, the sill's sun on it. */
function windowsill(profile: RiskProfile, start = T0) {
  const worn = home(start - 60 * MIN);
  const sill = minutes(
    60,
    (m) => ({ temperature: Math.min(22 + 0.5 * m, 46), humidity: 35, activity_level: 0 }),
    start,
  );
  return { worn, sill, ...run([...worn, ...sill], profile) };
}

describe('4. a collar that is not on a dog', () => {
  it('a collar on a sunny sill is "collar off", never a parked car nor any heat level', () => {
    const { worn, out } = windowsill(frenchie);
    const sill = out.slice(worn.length);
    const offAt = sill.findIndex((a) => a.collarOff);
    expect(offAt).toBe(COLLAR_OFF_AFTER_MS / MIN);
    expect(sill.slice(offAt).every((a) => a.collarOff && a.band === 'SAFE')).toBe(true);
    expect(sill.every((a) => a.trigger === null && a.band === 'SAFE')).toBe(true);
    expect(sill.slice(offAt).every((a) => a.reasons.length === 0)).toBe(true);
    // The owner is told once, when it is first judged off.
    expect(sill.filter((a) => a.collarOffNews)).toHaveLength(1);
    expect(sill[offAt]!.collarOffNews).toBe(true);
  });

  it('back on the dog it is judged again; a second off spell soon after is not news', () => {
    const { state } = windowsill(frenchie);
    const back = home(state.at + MIN);
    const { out: on, state: wornAgain } = run(back, frenchie, state);
    // "Off" a minute or two longer while it sheds the sill's heat, then worn.
    expect(on.slice(0, 3).some((a) => a.collarOff)).toBe(true);
    expect(on.slice(3).every((a) => !a.collarOff && a.band === 'SAFE')).toBe(true);
    const charger = minutes(
      20,
      () => ({ temperature: 24, humidity: 40, activity_level: 0 }),
      wornAgain.at + MIN,
    );
    const { out: again } = run(charger, frenchie, wornAgain);
    expect(again.some((a) => a.collarOff)).toBe(true);
    // Back on for an hour, then off again: the same restless evening, told once.
    expect(again.some((a) => a.collarOffNews)).toBe(false);
  });

  it('a charger in the evening: a heart rate from half an hour ago raises nothing', () => {
    const hot = minutes(
      20,
      () => ({ temperature: 30, humidity: 60, activity_level: 70, heart_rate: 180 }),
      T0,
    );
    const charging = minutes(
      40,
      () => ({ temperature: 26, humidity: 50, activity_level: 0 }),
      T0 + 20 * MIN,
    );
    const { out } = run([...hot, ...charging], cavalier);
    expect(out.slice(hot.length + 5).every((a) => a.collarOff && a.band === 'SAFE')).toBe(true);
  });

  it('a reading without heart rate or movement is flagged at once, judged off after 5 minutes', () => {
    const { worn, out } = windowsill(frenchie);
    const sill = out.slice(worn.length);
    expect(out.slice(0, worn.length).some((a) => a.noSign)).toBe(false);
    expect(sill.every((a) => a.noSign)).toBe(true);
    expect(sill.slice(0, 5).some((a) => a.collarOff)).toBe(false);
  });

  it('a dog at rest whose collar lost the heart rate but moves is not "off"', () => {
    const restless = minutes(
      30,
      (m) => ({ temperature: 22, humidity: 50, activity_level: 4 + (m % 3) }),
      T0,
    );
    const { out } = run(restless, frenchie, run(home(T0 - 60 * MIN), frenchie).state);
    expect(out.some((a) => a.collarOff)).toBe(false);
  });

  it('a collar that never reported a heart rate is judged as before (a known limit)', () => {
    const sill = minutes(
      30,
      (m) => ({ temperature: Math.min(22 + 0.4 * m, 46), humidity: 35, activity_level: 0 }),
      T0,
    );
    const { out } = run(sill, frenchie);
    expect(out.some((a) => a.collarOff)).toBe(false);
    expect(out.some((a) => a.trigger === 'parked-car')).toBe(true);
  });
});

describe('5. heat from an off collar enters no acclimatisation memory', () => {
  it('a sill two days before a hot walk leaves the dog "not used to the heat"', () => {
    // Four cool days of wear, then the sill (46 °C) on day 5, then a hot walk on day 7.
    let state: RiskState = emptyRiskState();
    for (let d = 0; d < 4; d++) state = run(home(T0 + d * DAY, 20), frenchie, state).state;
    state = run(windowsill(frenchie, T0 + 4 * DAY).sill, frenchie, state).state;
    expect(Math.max(...state.days.map(([, hi]) => hi))).toBeLessThan(25);
    const walk = minutes(
      20,
      () => ({ temperature: 30, humidity: 50, activity_level: 55, heart_rate: 150 }),
      T0 + 6 * DAY,
    );
    const { out } = run(walk, frenchie, state);
    expect(codes(out.at(-1)!)).toContain('acclimatisation');
  });
});

describe('6. a parked car within 5 minutes, from any start of 15 °C or more', () => {
  /**
   * An hour at home, a 20-minute drive lying still in the cooled car, then 20 minutes parked:
   * still, the cabin climbing about 1.8 °C per 5 minutes from the day's air. `parked` may
   * change a minute's reading. Answers the minute of the first parked-car verdict (-1: none)
   * and the assessments from the parking on.
   */
  function parkAt(air: number, parked: (m: number, s: Sample) => Sample = (_m, s) => s) {
    const before = [
      ...home(T0 - 80 * MIN, air, 90),
      ...minutes(
        20,
        () => ({ temperature: air, humidity: 45, activity_level: 5, heart_rate: 95 }),
        T0 - 20 * MIN,
      ),
    ];
    const car = minutes(
      20,
      (m) =>
        parked(m, {
          temperature: air + 0.36 * m,
          humidity: 45,
          activity_level: 5,
          heart_rate: 100,
        }),
      T0,
    );
    const out = run([...before, ...car], { name: 'Rex', breed: 'Labrador' }).out.slice(
      before.length,
    );
    return { first: out.findIndex((a) => a.trigger === 'parked-car'), out };
  }

  it.each([18, 24, 30])('a car on a %s °C day is CRITICAL within 5 minutes', (air) => {
    const { first, out } = parkAt(air);
    expect(first).toBeGreaterThanOrEqual(0);
    expect(first).toBeLessThanOrEqual(5);
    expect(out[first]!.band).toBe('CRITICAL');
  });

  it('a heart rate lost for minutes in the car (the sensor off the skin) delays the car by no more than its gap', () => {
    // For minutes 1-6 the collar sends no heart rate and reads no movement (judged off after
    // 5), then the heart rate is back.
    const { first, out } = parkAt(24, (m, s) => {
      if (m < 1 || m > 6) return s;
      const { heart_rate: _lost, ...rest } = s;
      return { ...rest, activity_level: 0 };
    });
    expect(first).toBeGreaterThanOrEqual(0);
    // Seen at the first reading with the dog's heart rate again, not 10 minutes later.
    expect(first).toBeLessThanOrEqual(8);
    expect(out[first]!.band).toBe('CRITICAL');
  });

  it('a reading that lost its activity value does not break the car pattern', () => {
    const { first } = parkAt(24, (m, s) => {
      if (m !== 2) return s;
      const { activity_level: _lost, ...rest } = s;
      return rest;
    });
    expect(first).toBeGreaterThanOrEqual(0);
    expect(first).toBeLessThanOrEqual(5);
  });

  it('a dog that just jumped in is seen once settled (a known limit: up to 8 + 5 minutes)', () => {
    const jump = minutes(
      3,
      () => ({ temperature: 24, humidity: 45, activity_level: 60, heart_rate: 120 }),
      T0 - 3 * MIN,
    );
    const car = minutes(
      20,
      (m) => ({ temperature: 24 + 0.36 * m, humidity: 45, activity_level: 5, heart_rate: 100 }),
      T0,
    );
    const { out } = run([...jump, ...car], { name: 'Rex' });
    const first = out.slice(jump.length).findIndex((a) => a.trigger === 'parked-car');
    expect(first).toBeGreaterThan(5);
    expect(first).toBeLessThanOrEqual(13);
  });

  it('a dog walking into a warmer room and lying down is no car', () => {
    // Garden at 19 °C, then a room at 24 °C: a 5 °C step behind the 3-minute sensor lag.
    const readings = minutes(
      40,
      (m) => ({
        temperature: m < 10 ? 19 : 24 - 5 * Math.exp(-(m - 10) / 3),
        humidity: 50,
        activity_level: m < 10 ? 18 : m < 11 ? 30 : 3,
        heart_rate: 100,
      }),
      T0,
    );
    expect(run(readings, frenchie).out.some((a) => a.trigger === 'parked-car')).toBe(false);
  });
});

describe('7. the resting heart rate is learned from awake rest, not sleep', () => {
  it('a night asleep at 7 % below the awake rate does not pull it down', () => {
    let state = emptyRiskState();
    for (let h = 0; h < 4; h++) state = run(home(T0 + h * 60 * MIN, 21, 100), {}, state).state;
    const awake = state.restHr!;
    expect(awake).toBeGreaterThan(97);
    const night = minutes(
      8 * 60,
      () => ({ temperature: 20, humidity: 55, activity_level: 2, heart_rate: 93 }),
      state.at + MIN,
    );
    state = run(night, {}, state).state;
    expect(state.restHr).toBeCloseTo(awake, 0);
    // So a walk at 150 bpm (1.5 × the awake rate) is not "heart rate high" (1.7 ×).
    const walk = minutes(
      30,
      () => ({ temperature: 21, humidity: 55, activity_level: 55, heart_rate: 150 }),
      state.at + MIN,
    );
    expect(run(walk, {}, state).out.flatMap(codes)).not.toContain('heart-rate');
  });
});

describe('heat index beyond its published range', () => {
  it('is said as "extreme heat", never as a number', () => {
    const { out } = run(
      minutes(3, () => ({ temperature: 40, humidity: 50, activity_level: 40 }), T0),
      frenchie,
    );
    const heat = out.at(-1)!.factors.find((f) => f.code === 'heat-index')!;
    expect(heat.label).toBe('extreme heat at the collar');
    expect(heat.points).toBe(5);
    const mild = run([{ at: T0, temperature: 32, humidity: 50 }], frenchie).out[0]!;
    expect(mild.factors.find((f) => f.code === 'heat-index')!.label).toBe(
      'heat index 34 °C (94 °F) at the collar',
    );
  });
});

describe('hot weeks: a band that does not flicker', () => {
  // A French Bulldog napping three hours in a room of about 27.5 °C on a hot afternoon: the
  // collar, buried in warm fur, reads about 30.2 °C, its heat index just under 33 °C, and now
  // and then a reading's noise takes it just over (30.6 °C). The model used to enter a band at
  // each such reading and leave it 5 minutes later: an alert opened and closed ten times a nap.
  // (The same nap in a 26 °C room, the collar's heat index just under 30 °C, now raises no
  // band at all: the breed's odds weigh with the heat, see "warm weeks" below.)
  const nap = minutes(
    180,
    (m) => ({
      temperature: m % 11 === 5 ? 30.6 : 30.2 + (m % 3) * 0.05,
      humidity: 58,
      activity_level: m % 4,
      heart_rate: 86 + (m % 5),
    }),
    T0 + 5 * 60 * MIN,
  );
  const starts = (out: RiskAssessment[]) =>
    out.filter((a, i) => a.band !== 'SAFE' && (i === 0 || out[i - 1]!.band === 'SAFE')).length;

  it('a band entered on a reading over a step is kept through noise within half a point', () => {
    const { out } = run(nap, frenchie);
    expect(out.some((a) => a.band === 'WARNING')).toBe(true);
    expect(starts(out)).toBe(1);
  });

  it('a real fall of a step still lowers it (after the 5-minute hold)', () => {
    // The room cools to 24 °C: the collar's heat index falls below 27 °C.
    const cooler = minutes(
      20,
      () => ({ temperature: 25.5, humidity: 55, activity_level: 2, heart_rate: 86 }),
      nap.at(-1)!.at + MIN,
    );
    const { out } = run([...nap, ...cooler], frenchie);
    expect(out.at(-1)!.band).toBe('SAFE');
  });
});

describe('a silence hides a move: no parked car from a step after it', () => {
  it('in from a cool garden during a 15-minute silence, lying down in a warmer room', async () => {
    // Pottering quietly in the evening garden (collar 22.5 °C), 15 minutes with no readings
    // (out of reach), two more in the garden, then lying still indoors: the collar climbs 3 °C
    // behind its 3-minute lag, as a car's would for its first minutes. The collar never saw
    // the dog settle there, so the climb is not a car.
    const garden = minutes(
      12,
      () => ({ temperature: 22.5, humidity: 50, activity_level: 5, heart_rate: 80 }),
      T0 + 9 * 60 * MIN,
    );
    const back = garden.at(-1)!.at + 16 * MIN;
    const again = minutes(
      2,
      () => ({ temperature: 22.5, humidity: 50, activity_level: 4, heart_rate: 80 }),
      back,
    );
    const room = minutes(
      15,
      (m) => ({
        temperature: 22.5 + 3 * (1 - Math.exp(-m / 3)),
        humidity: 48,
        activity_level: 3,
        heart_rate: 78,
      }),
      back + 2 * MIN,
    );
    const { out } = run([...garden, ...again, ...room], {
      name: 'Nanook',
      breed: 'Siberian Husky',
    });
    expect(out.map((a) => a.trigger)).not.toContain('parked-car');
    expect(out.every((a) => a.band !== 'CRITICAL')).toBe(true);
  });
});

describe('warm weeks: a high-risk dog walks and plays without an alarm', () => {
  // Readings of the collar simulator's warm week (seed 1; air 22–26 °C, dew point 12–16 °C),
  // a reading a minute: "temperature humidity activity heart-rate", "-" for a value lost,
  // "×N" for a reading repeated N minutes.
  // Each was an alert of the model alone (the thresholds SAFE throughout): the dog's profile
  // added its full odds to 1.5 points of a heat index of 27–29 °C at the collar (the dog's own
  // warmth on air of about 25 °C) and half a point of exercise, and reached WARNING at 4.5:
  // the French Bulldog at 5 (breed 2.5, weight 0.5), the old Cavalier at 5.8 (breed 1.5,
  // heart condition 1, age 0.81, body condition 0.49). Its odds now weigh with the heat.
  const replay = (text: string, start: number): RiskReading[] => {
    const rows = text
      .split(/[,\n]/)
      .map((row) => row.trim().split(/\s+/))
      .filter((row) => row.length >= 4)
      .flatMap((row) => Array<string[]>(Number(row[4]?.slice(1) ?? 1)).fill(row));
    const value = (v: string) => (v === '-' ? null : Number(v));
    return rows.map(([t, h, a, hr], i) => ({
      at: start + i * MIN,
      temperature: Number(t),
      humidity: Number(h),
      activity_level: value(a!),
      heart_rate: value(hr!),
    }));
  };
  const coco: RiskProfile = {
    name: 'Coco',
    breed: 'French Bulldog',
    age: 3,
    weightLbs: 26,
    sex: 'female',
    bodyCondition: 5,
  };
  const rosie: RiskProfile = {
    name: 'Rosie',
    breed: 'Cavalier King Charles Spaniel',
    age: 12,
    weightLbs: 18,
    sex: 'female',
    bodyCondition: 6,
    conditions: ['heart'],
  };
  // A nap, a 21-minute evening walk at 17:36 (air 26 °C), dinner, and rest on the sofa.
  const eveningWalk = `
    26.9 54 2 80 ×10
    27.3 50 30 120, 27.6 48 35 -, 28.1 48 73 138, 28.3 47 81 141
    28.3 47 75 139, 28.3 45 38 147, 28.4 46 47 136, 28.5 47 63 137
    28.3 47 54 -, 28.4 46 67 142, 28.4 43 55 140, 28.5 45 62 143
    28.6 49 76 141, 28.5 46 52 146, 28.4 48 39 143, 28.4 46 56 138
    28.4 45 54 138, 28.4 47 36 141, 28.4 45 40 138, 28.5 47 66 -
    28.6 46 59 136, 27.9 52 42 136, 27.6 53 31 129, 27.3 52 25 121
    27 54 22 123, 26.9 55 31 114, 26.9 54 31 123, 26.8 55 28 120
    26.3 55 10 113, 26.7 57 8 103, 26.4 54 3 104, 26.6 54 14 105
    26.6 52 6 104, 26.5 57 7 101, 26.6 54 5 102, 26.5 53 10 100`;
  // A nap, 15 minutes of fetch in the garden at 14:01 (air 25 °C, sunny), and a nap.
  const gardenPlay = `
    25.8 48 2 77 ×9
    26.8 44 82 140, 27.3 41 79 161, 28 42 87 169, 28.2 37 98 175
    28.2 40 76 177, 28.4 36 80 177, 28.7 38 86 180, 28.6 38 81 180
    28.8 37 84 178, 28.9 36 71 176, 28.9 35 69 188, 28.8 39 91 171
    29 39 76 174, 29.1 36 64 173, 29 38 67 171, 28.1 40 2 148
    27.6 44 4 125, 27.2 46 0 119, 26.7 45 1 103, 26.3 47 1 99
    26.4 48 3 90, 26.2 46 2 90, 25.8 50 5 88`;
  // The old Cavalier: a nap, 12 minutes of play outdoors at 13:45 (air 24.5 °C), a nap.
  const cavalierPlay = `
    25.6 56 2 95 ×8
    25.4 55 1 110, 26.3 51 95 142, 27 46 81 153, 27.5 46 67 164
    27.8 45 75 162, 28 48 64 164, 28.1 46 89 169, 28.3 45 97 164
    28.2 42 89 -, 28.6 44 77 160, 28.5 42 68 168, 28.7 44 76 171
    28.7 43 82 163, 27.8 47 0 144, 27 51 2 137, 26.7 54 0 122
    26.4 55 2 114, 26.2 54 2 108, 26 55 4 108, 25.9 54 5 103
    26.1 56 3 102`;
  const afternoon = T0 + 5 * 60 * MIN;

  it.each([
    ['the French Bulldog’s evening walk', eveningWalk, coco],
    ['the French Bulldog’s 15 minutes of fetch', gardenPlay, coco],
    ['the old Cavalier’s 12 minutes of play', cavalierPlay, rosie],
  ] as const)('%s raises no band, its exercise judged all the same', (_, rows, dog) => {
    const { out } = run(replay(rows, afternoon), dog);
    expect(out.map((a) => a.band)).toEqual(out.map(() => 'SAFE'));
    expect(Math.max(...out.map((a) => a.score))).toBeLessThan(RISK_BAND_FLOORS.WARNING - 1);
    // The exercise in the warmth counts; the breed weighs with the heat, not at full odds.
    expect(out.flatMap(codes)).toContain('exertion');
    const breed = out.flatMap((a) => a.factors).filter((f) => f.code === 'breed');
    expect(Math.max(...breed.map((f) => f.points))).toBeLessThan(1);
  });

  it('the same dogs in real heat are raised as before: the odds multiply it', () => {
    // The walk again on a hot afternoon: the collar 4 °C warmer (air of about 30 °C).
    const hot = replay(eveningWalk, afternoon).map((r) => ({
      ...r,
      temperature: r.temperature + 4,
    }));
    for (const dog of [coco, rosie]) {
      const { out } = run(hot, dog);
      expect(out.some((a) => a.band === 'DANGER' || a.band === 'CRITICAL')).toBe(true);
      const breed = out.at(-12)!.factors.find((f) => f.code === 'breed')!;
      expect(breed.points).toBeGreaterThan(1);
    }
  });
});
