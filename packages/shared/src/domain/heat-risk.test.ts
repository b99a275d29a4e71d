import { describe, expect, it } from 'vitest';
import { matchBreed } from './breeds.js';
import {
  BacktestTally,
  assessAlone,
  emptyRiskState,
  parkedCarPattern,
  parseRiskState,
  profileFactors,
  recordDay,
  riskBandHeld,
  riskStep,
  timesTheRisk,
  type RiskAssessment,
  type RiskProfile,
  type RiskReading,
} from './heat-risk.js';

const MIN = 60_000;
const T0 = Date.UTC(2026, 6, 15, 12, 0, 0);

/** Readings every `everyS` seconds for `minutes`, from a function of the minute. */
function trace(
  minutes: number,
  at: (m: number) => Omit<RiskReading, 'at'>,
  start = T0,
  everyS = 30,
): RiskReading[] {
  const out: RiskReading[] = [];
  for (let s = 0; s <= minutes * 60; s += everyS) out.push({ at: start + s * 1000, ...at(s / 60) });
  return out;
}

/** Runs readings through the model; answers every assessment, and the state after. */
function run(readings: RiskReading[], profile: RiskProfile = {}, state = emptyRiskState()) {
  const out: RiskAssessment[] = [];
  for (const r of readings) {
    const step = riskStep(state, r, profile);
    state = step.state;
    out.push(step.assessment);
  }
  return { assessments: out, last: out.at(-1)!, state };
}

const resting = { activity_level: 8, heart_rate: 80 };

describe('matchBreed', () => {
  it.each([
    ['French Bulldog', 'French Bulldog'],
    ['frenchie', 'French Bulldog'],
    ['French bulldog x poodle', 'French Bulldog'],
    ['English Bulldog', 'Bulldog'],
    ['bulldog', 'Bulldog'],
    ['Labradoodle', 'Labrador Retriever'],
    ['  PUG  ', 'Pug'],
    ['Cavalier', 'Cavalier King Charles Spaniel'],
    ['Pug x Labrador', 'Pug'],
    ['Labrador/Pug', 'Pug'],
    ['Chihuahua Pug mix', 'Pug'],
    ['American Bulldog', 'American Bulldog'],
    ['Italian Greyhound', 'Italian Greyhound'],
    ['Bulldog Français', 'French Bulldog'],
    ['Pekinese', 'Pekingese'],
    ['King Charles Spaniel', 'King Charles Spaniel'],
  ])('"%s" is the %s', (text, name) => {
    expect(matchBreed(text)?.name).toBe(name);
  });

  it.each(['', '   ', 'Mixed Breed', 'Other', 'Bullmastif-ish wolf', null])(
    '"%s" is no known breed (neutral)',
    (text) => {
      expect(matchBreed(text)).toBeNull();
    },
  );
});

describe('profileFactors', () => {
  const points = (p: RiskProfile) =>
    Object.fromEntries(profileFactors(p).map((f) => [f.code, f.points]));

  it('an unknown profile adds nothing', () => {
    expect(profileFactors({})).toEqual([]);
    expect(profileFactors({ breed: 'Other', sex: 'male' })).toEqual([]);
  });

  it('a flat-faced breed counts log2(2.1); a breed of high published risk counts more', () => {
    expect(points({ breed: 'Boxer' })).toEqual({ breed: 1.07 });
    expect(points({ breed: 'Pug' })).toEqual({ breed: 1.5 });
    expect(points({ breed: 'French Bulldog' })).toEqual({ breed: 2.5 });
    expect(points({ breed: 'Greyhound' })).toEqual({ breed: 1.5 });
    expect(points({ breed: 'Labrador' })).toEqual({});
  });

  it('weight, age, body condition and known conditions', () => {
    expect(points({ weightLbs: 121 })).toEqual({ weight: 1.77 }); // 55 kg: OR 3.4
    expect(points({ weightLbs: 15 })).toEqual({}); // under 10 kg
    // The reason says the weight as the owner entered it, in lbs.
    expect(profileFactors({ weightLbs: 121 }).map((f) => f.label)).toEqual(['121 lbs body weight']);
    expect(points({ age: 7 })).toEqual({ age: 0.58 }); // OR 1.5
    expect(points({ age: 13 })).toEqual({ age: 0.81 }); // OR 1.75
    expect(points({ age: 3 })).toEqual({});
    expect(points({ bodyCondition: 7 })).toEqual({ 'body-condition': 0.49 }); // OR 1.4
    expect(points({ bodyCondition: 5 })).toEqual({});
    expect(points({ conditions: ['airway', 'heart'] })).toEqual({ conditions: 2 });
  });

  it('speaks in plain words with the odds beside them', () => {
    const [breed] = profileFactors({ breed: 'boxer' });
    expect(`${breed!.label}, ${timesTheRisk(breed!.points)}`).toBe(
      'flat-faced breed (Boxer), about 2× the risk',
    );
    expect(timesTheRisk(0.58)).toBe('about 1.5× the risk');
    expect(timesTheRisk(2.5)).toBe('about 6× the risk');
  });
});

describe('parkedCarPattern', () => {
  const m0 = 1000;
  const samples = (temps: number[], still: (i: number) => boolean = () => true) =>
    temps.map((t, i) => [m0 + i, t, still(i) ? 1 : 0] as [number, number, 0 | 1]);
  // A closed car: about 1.8 °C per 5 minutes.
  const car = Array.from({ length: 12 }, (_, i) => 27 + 0.38 * i);

  it('a steady rise while the dog is still, seen over 5 minutes', () => {
    expect(parkedCarPattern(samples(car), m0 + 11)).toBe(true);
  });

  it('not when the dog moved in the window', () => {
    expect(
      parkedCarPattern(
        samples(car, (i) => i !== 6),
        m0 + 11,
      ),
    ).toBe(false);
  });

  it('not a step: the dog walks from a cool house onto a hot patio', () => {
    const step = [22, 22, 22, 26, 30, 31.5, 32, 32, 32, 32, 32, 32];
    expect(parkedCarPattern(samples(step), m0 + 11)).toBe(false);
  });

  // It used to wait for a 30 °C collar: a car on an 18 °C day was seen after half an hour.
  it('from any start of 15 °C or more, not below, and not on a slight drift', () => {
    expect(parkedCarPattern(samples(car.map((t) => t - 11.5)), m0 + 11)).toBe(true); // 17.8 °C
    expect(parkedCarPattern(samples(car.map((t) => t - 15)), m0 + 11)).toBe(false); // 14.3 °C
    expect(parkedCarPattern(samples(car.map((_, i) => 31 + 0.1 * i)), m0 + 11)).toBe(false);
  });

  it('not without five minutes of samples', () => {
    expect(parkedCarPattern(samples(car.slice(7)), m0 + 4)).toBe(false);
    expect(parkedCarPattern(samples(car.slice(6)), m0 + 5)).toBe(true);
  });

  it('not once a climb slows to a step’s plateau', () => {
    // A step of 11 °C behind a 3-minute sensor lag: its first minutes climb as a car does
    // (riskStep tells them apart by the dog's move into the heat), then it flattens.
    const tail = Array.from({ length: 20 }, (_, i) => 22 + 11 * (1 - Math.exp(-i / 3)));
    for (let m = 11; m < 20; m++)
      expect(parkedCarPattern(samples(tail.slice(0, m + 1)), m0 + m), `minute ${m}`).toBe(false);
  });
});

describe('riskStep', () => {
  it('a resting dog on a pleasant day stays SAFE, whatever its profile', () => {
    const worst: RiskProfile = {
      breed: 'French Bulldog',
      age: 13,
      weightLbs: 130,
      bodyCondition: 9,
      conditions: ['airway', 'breathing', 'heart'],
    };
    const { assessments } = run(
      trace(120, () => ({ temperature: 22, humidity: 50, ...resting })),
      worst,
    );
    expect(new Set(assessments.map((a) => a.band))).toEqual(new Set(['SAFE']));
  });

  // Exercise used to count on its own: this walk at 18 °C was DANGER for a French Bulldog.
  // A collar of 30 °C, 60 % on a walk is air of about 28 °C (an ordinary walk at a 28 °C
  // collar, air of about 26 °C, raises no band: heat-risk-defects.test.ts, "warm weeks").
  it('sustained exercise in the warmth raises a flat-faced dog, not a typical one', () => {
    const walk = trace(40, (m) => ({
      temperature: 30,
      humidity: 60,
      activity_level: m < 2 ? 10 : 70,
      heart_rate: m < 2 ? 90 : 150,
    }));
    const frenchie = run(walk, { breed: 'French Bulldog', weightLbs: 26, age: 4 }).last;
    const lab = run(walk, { breed: 'Labrador', weightLbs: 65, age: 4 }).last;
    expect(frenchie.band).not.toBe('SAFE');
    expect(frenchie.reasons.join(' ')).toMatch(
      /exercise for \d+ minutes in the warmth, about [\d.]+× the risk/,
    );
    expect(frenchie.reasons.join(' ')).toMatch(/French Bulldog/);
    expect(lab.score).toBeLessThan(frenchie.score);
  });

  it('a few minutes of play is not sustained exercise', () => {
    const play = trace(8, () => ({ temperature: 18, humidity: 55, activity_level: 90 }));
    const { assessments } = run(play, { breed: 'French Bulldog' });
    expect(assessments.flatMap((a) => a.factors.map((f) => f.code))).not.toContain('exertion');
    expect(assessments.every((a) => a.band === 'SAFE')).toBe(true);
  });

  it('the first hot day counts against a dog not used to the heat', () => {
    const day = 86_400_000;
    let cool = emptyRiskState();
    let hot = emptyRiskState();
    for (let d = 5; d >= 1; d--) {
      cool = recordDay(cool, { at: T0 - d * day, temperature: 17, humidity: 50 });
      hot = recordDay(hot, { at: T0 - d * day, temperature: 31, humidity: 50 });
    }
    const walk = trace(30, () => ({ temperature: 30, humidity: 50, activity_level: 50 }));
    const first = run(walk, {}, cool).last;
    const used = run(walk, {}, hot).last;
    expect(first.factors.map((f) => f.code)).toContain('acclimatisation');
    expect(used.factors.map((f) => f.code)).not.toContain('acclimatisation');
    expect(first.score).toBeGreaterThan(used.score);
  });

  it('a new collar without history is neutral on acclimatisation', () => {
    const { last } = run(trace(5, () => ({ temperature: 32, humidity: 50, ...resting })));
    expect(last.factors.map((f) => f.code)).not.toContain('acclimatisation');
  });

  it('the parked-car pattern is CRITICAL whatever the score, and holds while it stays hot', () => {
    const readings = trace(30, (m) => ({
      temperature: Math.min(24 + 0.36 * m, 38),
      humidity: 45,
      activity_level: 5,
      heart_rate: 95,
    }));
    const { assessments } = run(readings, { name: 'Rex' });
    const first = assessments.findIndex((a) => a.trigger === 'parked-car');
    expect(first).toBeGreaterThan(0);
    expect(assessments[first]!.band).toBe('CRITICAL');
    expect(assessments[first]!.reasons[0]).toMatch(/while Rex is still: .*parked car/);
    expect(assessments.slice(first).every((a) => a.band === 'CRITICAL')).toBe(true);
  });

  it('sustained heat at rest turns CRITICAL after half an hour', () => {
    const { assessments } = run(trace(45, () => ({ temperature: 33, humidity: 55, ...resting })));
    const at = (m: number) => assessments[m * 2]!;
    expect(at(20).trigger).toBeNull();
    expect(at(40).trigger).toBe('heat-at-rest');
    expect(at(40).band).toBe('CRITICAL');
  });

  it('a heart rate that does not come down after exercise adds points', () => {
    // An hour at rest teaches the dog's resting rate; then 15 minutes of play, then rest.
    // (The rest is awake rest: the dog gets up for a minute every 10.)
    const readings = trace(90, (m) => ({
      temperature: 27,
      humidity: 50,
      activity_level: m < 60 ? (m % 10 >= 9 ? 60 : 5) : m < 75 ? 80 : 5,
      heart_rate: m < 60 ? 75 : m < 75 ? 160 : 150,
    }));
    const { last, state } = run(readings);
    expect(state.restHr).toBeLessThan(85);
    expect(last.factors.find((f) => f.code === 'heart-rate')?.label).toMatch(
      /heart rate still 1\d\d bpm \d+ minutes after exercise/,
    );
  });

  it('a higher band shows at once; a lower one only after 5 minutes of judging lower', () => {
    const hot = trace(40, () => ({ temperature: 36, humidity: 60, activity_level: 60 }));
    const { state, last } = run(hot);
    expect(last.band).not.toBe('SAFE');
    const cool = trace(
      8,
      () => ({ temperature: 20, humidity: 50, activity_level: 5 }),
      hot.at(-1)!.at + 30_000,
    );
    const after = run(cool, {}, state).assessments;
    expect(after[0]!.band).toBe(last.band);
    expect(after[0]!.reasons).toEqual(last.reasons);
    expect(after[8]!.band).toBe(last.band); // 4 minutes on
    expect(after[12]!.band).toBe('SAFE'); // 6 minutes on
  });

  it('tells a held band from one the reading reached by its own score', () => {
    const warm = trace(40, () => ({ temperature: 31, humidity: 55, activity_level: 60 }));
    const { state, last } = run(warm);
    expect(['WARNING', 'DANGER']).toContain(last.band);
    expect(riskBandHeld(last.band, last.score)).toBe(false);
    const cool = trace(
      3,
      () => ({ temperature: 20, humidity: 50, activity_level: 5 }),
      warm.at(-1)!.at + 30_000,
    );
    const held = run(cool, {}, state).last;
    expect(held.band).toBe(last.band);
    expect(riskBandHeld(held.band, held.score)).toBe(true);
    // A CRITICAL band may be a pattern's, whatever the score: never called held.
    expect(riskBandHeld('CRITICAL', 1)).toBe(false);
    expect(riskBandHeld('SAFE', 0)).toBe(false);
    expect(riskBandHeld(null, null)).toBe(false);
    expect(riskBandHeld('WARNING', null)).toBe(false);
  });

  it('learns the resting heart rate at a 5 s cadence, not from a heart still recovering', () => {
    // Awake rest: still, but up for a minute every quarter of an hour.
    const rest = (from: number, minutes: number, hr: number) =>
      trace(
        minutes,
        (m) => ({
          temperature: 22,
          humidity: 50,
          activity_level: m % 15 >= 14 ? 60 : 5,
          heart_rate: hr,
        }),
        from,
        5,
      );
    const play = trace(
      20,
      () => ({ temperature: 22, humidity: 50, activity_level: 85, heart_rate: 160 }),
      T0,
      5,
    );
    // Straight after play the heart is at 140: not a resting rate.
    const after = run(rest(play.at(-1)!.at + 5000, 20, 140), {}, run(play).state).state;
    expect(after.restHr).toBeNull();
    // Hours at 70 bpm at rest: learned, though each step moves it by a fraction of a beat.
    const hours = run(rest(T0, 240, 70)).state;
    expect(hours.restHr).toBeGreaterThan(69);
    expect(hours.restHr).toBeLessThan(72);
  });

  it('a collar clock set back moves no window backwards', () => {
    const ahead = trace(10, () => ({
      temperature: 25,
      humidity: 50,
      activity_level: 60,
      heart_rate: 120,
    }));
    const { state } = run(ahead);
    // Correctly timed readings, 4 minutes before the last one the collar sent.
    const back = trace(
      3,
      () => ({ temperature: 25, humidity: 50, activity_level: 60, heart_rate: 120 }),
      state.at - 4 * MIN,
    );
    const after = run(back, {}, state).state;
    expect(after.exertAct).toBe(60);
    expect(after.exertSince).toBe(ahead[0]!.at);
    expect(after.calm).toBeGreaterThan(50);
    expect(after.hr).toBeCloseTo(120, 0);
    expect(after.at).toBe(state.at);
  });

  it('a collar that stops reporting activity is not judged still', () => {
    const still = trace(5, () => ({ temperature: 36, humidity: 50, activity_level: 3 }));
    const { state } = run(still);
    const blind = trace(45, () => ({ temperature: 36, humidity: 50 }), state.at + 30_000);
    const { assessments } = run(blind, {}, state);
    expect(assessments.some((a) => a.trigger !== null)).toBe(false);
    expect(assessments.at(-1)!.factors.map((f) => f.code)).not.toContain('exertion');
  });

  it('a step outdoors behind a sensor lag of up to 3 minutes is not a car', () => {
    // The dog walks out (a minute or two of movement), then lies down on the patio.
    for (const lagMin of [0.5, 1, 2, 3]) {
      const readings = trace(40, (m) => ({
        temperature: m < 5 ? 22 : 33 - 11 * Math.exp(-(m - 5) / lagMin),
        humidity: 40,
        activity_level: m >= 4 && m < 6 ? 45 : 4,
      }));
      const { assessments } = run(readings);
      expect(
        assessments.some((a) => a.trigger === 'parked-car'),
        `lag ${lagMin} min`,
      ).toBe(false);
    }
  });

  it('a car pattern lets go once the heat levels off below 35 °C', () => {
    const readings = trace(45, (m) => ({
      temperature: m < 20 ? 24 + 0.4 * m : 32,
      humidity: 40,
      activity_level: 4,
    }));
    const { assessments } = run(readings);
    expect(assessments[40]!.trigger).toBe('parked-car'); // minute 20
    expect(assessments.at(-1)!.trigger).toBeNull(); // 25 minutes flat at 32 °C
  });

  it('a long silence starts the short windows afresh but keeps the days', () => {
    const { state } = run(trace(40, () => ({ temperature: 30, humidity: 50, activity_level: 60 })));
    const next = riskStep(
      state,
      { at: state.at + 3 * 60 * MIN, temperature: 21, humidity: 50, activity_level: 5 },
      {},
    ).state;
    expect(next.exertSince).toBe(null);
    expect(next.warmSince).toBe(null);
    expect(next.days.length).toBe(1);
    // What was held before the silence is not shown after it.
    expect(next.held).toBe('SAFE');
    expect(next.heldReasons.join(' ')).not.toMatch(/exercise/);
  });
});

describe('assessAlone and the stored state', () => {
  it('judges a backlog reading from its own heat and the profile', () => {
    const a = assessAlone({ at: T0, temperature: 38, humidity: 60 }, { breed: 'Pug' });
    expect(a.band).not.toBe('SAFE');
    expect(a.trigger).toBeNull();
  });

  it('a missing or foreign state starts afresh', () => {
    expect(parseRiskState(null)).toEqual(emptyRiskState());
    expect(parseRiskState('{"v":99}')).toEqual(emptyRiskState());
    expect(parseRiskState('not json')).toEqual(emptyRiskState());
    expect(parseRiskState('{"v":1}')).toEqual(emptyRiskState());
    // The first version's state: its days' heat is kept, nothing else (its resting heart
    // rate was learned from sleep too).
    const days = [[20649, 31.5]];
    expect(parseRiskState(JSON.stringify({ v: 1, restHr: 60, days }))).toEqual({
      ...emptyRiskState(),
      days,
    });
    const good = run(
      trace(20, () => ({ temperature: 30, humidity: 50, activity_level: 40 })),
    ).state;
    expect(parseRiskState(JSON.stringify(good))).toEqual(good);
    // Written before carDoubtUntil existed: kept whole, with it unset.
    const { carDoubtUntil: _unset, ...older } = { ...good, restHr: 72 };
    expect(parseRiskState(JSON.stringify(older))).toEqual({ ...older, carDoubtUntil: null });
    // Written before exertMins existed (this version's, which counts play in bouts): kept
    // whole, with no minutes of exercise counted yet.
    expect(good.exertMins.length).toBeGreaterThan(0);
    const { exertMins: _none, ...beforeBouts } = good;
    expect(parseRiskState(JSON.stringify(beforeBouts))).toEqual({ ...good, exertMins: [] });
    const { exertMins: _n, carDoubtUntil: _u, ...beforeBoth } = good;
    expect(parseRiskState(JSON.stringify(beforeBoth))).toEqual({
      ...good,
      exertMins: [],
      carDoubtUntil: null,
    });
    // Written before offNewsAt existed: no off spell's news waiting.
    const { offNewsAt: _waiting, ...beforeNews } = { ...good, offNewsAt: 5 };
    expect(parseRiskState(JSON.stringify(beforeNews))).toEqual({ ...good, offNewsAt: null });
    expect(parseRiskState(JSON.stringify({ ...good, offNewsAt: 5 }))).toEqual({
      ...good,
      offNewsAt: 5,
    });
    for (const broken of [
      { days: null },
      { offNewsAt: 'x' },
      { temps: [[1, 'x', 1]] },
      { held: 'HOT' },
      { calm: '12' },
      { heldReasons: [1] },
      { exertMins: ['3'] },
      { exertMins: 3 },
    ])
      expect(parseRiskState(JSON.stringify({ ...good, ...broken }))).toEqual(emptyRiskState());
  });

  it('never changes a state in place: the server keeps the states it wrote and reuses them', () => {
    const deepFreeze = <T>(o: T): T => {
      if (o && typeof o === 'object' && !Object.isFrozen(o)) {
        Object.freeze(o);
        for (const v of Object.values(o)) deepFreeze(v);
      }
      return o;
    };
    // A state with every window filled: a parked car, then a walk, over two days.
    let state = run(
      trace(30, (m) => ({
        temperature: 24 + m / 2,
        humidity: 45,
        activity_level: 4,
        heart_rate: 110,
      })),
    ).state;
    const walk = trace(
      20,
      () => ({ temperature: 28, humidity: 60, activity_level: 70, heart_rate: 150 }),
      T0 + 86_400_000,
    );
    for (const r of walk) {
      const before = JSON.stringify(deepFreeze(state));
      // Strict-mode code throws when it writes to a frozen object.
      const next = riskStep(state, r, { breed: 'Pug' }).state;
      recordDay(state, { ...r, at: r.at - 3 * 86_400_000 });
      assessAlone(r, {});
      expect(JSON.stringify(state)).toBe(before);
      state = next;
    }
  });

  it('keeps the highest heat index of each of the last 15 days only', () => {
    let s = emptyRiskState();
    for (let d = 0; d < 20; d++)
      s = recordDay(s, { at: T0 + d * 86_400_000, temperature: 20 + d / 10, humidity: 50 });
    s = recordDay(s, { at: T0 + 19 * 86_400_000 + 1000, temperature: 10, humidity: 50 });
    expect(s.days).toHaveLength(15);
    expect(s.days.at(-1)![1]).toBeGreaterThan(21);
  });
});

describe('BacktestTally', () => {
  const r = (m: number, status: string, risk: string | null) => ({
    at: T0 + m * MIN,
    status: status as 'SAFE',
    risk_band: risk as 'SAFE' | null,
  });

  it('counts the alerts and minutes of each side, and what only the model saw', () => {
    const t = new BacktestTally();
    for (const x of [
      r(0, 'SAFE', 'SAFE'),
      r(1, 'SAFE', 'WARNING'), // model alert 1 (thresholds SAFE throughout)
      r(2, 'SAFE', 'DANGER'),
      r(3, 'SAFE', 'SAFE'),
      r(4, 'WARNING', 'SAFE'), // both alert
      r(5, 'WARNING', 'DANGER'),
      r(6, 'SAFE', null),
      r(7, 'SAFE', 'WARNING'), // model alert 3, still open at the end
    ])
      t.add(x);
    expect(t.result()).toEqual({
      thresholds: { alerts: 1, minutes_elevated: 2, highest: 'WARNING' },
      model: { alerts: 3, minutes_elevated: 4, highest: 'DANGER' },
      model_only_alerts: 2,
    });
  });

  it('a long silence counts at most 10 minutes', () => {
    const t = new BacktestTally();
    t.add(r(0, 'WARNING', null));
    t.add(r(120, 'SAFE', null));
    expect(t.result().thresholds.minutes_elevated).toBe(10);
  });
});
