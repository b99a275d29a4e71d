// A week in the life of a dog wearing a collar, a reading a minute: nights, naps, meals, two or
// three walks, play, the collar on its charger some evenings and once left on a sunny windowsill,
// in a mild, a warm or a hot summer week. Seeded: the same dog, week and seed give the same trace.
// The dogs' bodies and days are in DOG_PROFILES and planDay; the rendering (weather, room,
// collar, heart rate) is in life.ts.
import {
  DAY_MS,
  HOUR_MS,
  MINUTE_MS,
  intBetween,
  render,
  type Behaviour,
  type DayWeather,
  type DogProfile,
  type Place,
  type Segment,
  type TraceMinute,
} from './life.js';
import { between, seededRandom, type Random } from './vitals.js';

export type WeekKind = 'cool' | 'mild' | 'warm' | 'hot';
export const BENIGN_WEEKS = ['mild', 'warm', 'hot'] as const;

/**
 * A summer week's climate in a temperate city: the range of the days' lows and highs (°C),
 * of their dew points (°C) and of their sunshine (0–1). Humidity follows from the dew point,
 * high at dawn and low in the afternoon. `cool`: the days before a first hot day.
 */
export const CLIMATES: Record<
  WeekKind,
  { minC: [number, number]; maxC: [number, number]; dewPointC: [number, number] }
> = {
  cool: { minC: [10, 13], maxC: [16, 19], dewPointC: [7, 10] },
  mild: { minC: [12, 15], maxC: [20, 23.5], dewPointC: [9, 12] },
  warm: { minC: [16, 19], maxC: [25, 28.5], dewPointC: [12, 16] },
  hot: { minC: [21, 23.5], maxC: [31, 34.5], dewPointC: [15, 19] },
};

/** Monday 6 July 2026, 00:00 UTC: where a week starts unless told otherwise. */
export const WEEK_START = Date.UTC(2026, 6, 6);

/**
 * The dogs: the pet sheet's fields as an owner fills them in, and their bodies. Heart rates are
 * typical clinical figures (larger dogs slower; about 20 % lower asleep; a puppy and a dog with
 * heart disease faster).
 */
export const DOG_PROFILES = {
  labrador: {
    key: 'labrador',
    label: 'Labrador, 4, healthy',
    pet: {
      name: 'Bruno',
      breed: 'Labrador Retriever',
      age: 4,
      weight: 66,
      sex: 'male',
      body_condition: 5,
      health_conditions: [],
    },
    heartRate: { sleep: 62, rest: 80, walk: 112, play: 150 },
    heatHeartRate: 1.5,
    collarWarmthC: 2.6,
    walksPerDay: [2, 3],
    walkMinutes: [25, 60],
    playsPerDay: [1, 3],
    batteryHours: 60,
  },
  frenchie: {
    key: 'frenchie',
    label: 'French Bulldog, 3 (flat-faced)',
    pet: {
      name: 'Coco',
      breed: 'French Bulldog',
      age: 3,
      weight: 26,
      sex: 'female',
      body_condition: 5,
      health_conditions: [],
    },
    heartRate: { sleep: 80, rest: 100, walk: 128, play: 162 },
    heatHeartRate: 2.2,
    collarWarmthC: 2.8,
    walksPerDay: [2, 3],
    walkMinutes: [15, 35],
    playsPerDay: [1, 3],
    batteryHours: 60,
  },
  cavalier: {
    key: 'cavalier',
    label: 'Cavalier, 12, heart condition',
    pet: {
      name: 'Rosie',
      breed: 'Cavalier King Charles Spaniel',
      age: 12,
      weight: 18,
      sex: 'female',
      body_condition: 6,
      health_conditions: ['heart'],
    },
    heartRate: { sleep: 96, rest: 114, walk: 136, play: 150 },
    heatHeartRate: 2.2,
    collarWarmthC: 2.8,
    walksPerDay: [2, 2],
    walkMinutes: [15, 30],
    playsPerDay: [0, 1],
    batteryHours: 60,
  },
  husky: {
    key: 'husky',
    label: 'Siberian Husky, 5 (thick coat)',
    pet: {
      name: 'Nanook',
      breed: 'Siberian Husky',
      age: 5,
      weight: 50,
      sex: 'male',
      body_condition: 5,
      health_conditions: [],
    },
    heartRate: { sleep: 58, rest: 74, walk: 108, play: 152 },
    heatHeartRate: 1.8,
    // The thick double coat holds the collar in warm air.
    collarWarmthC: 3.4,
    walksPerDay: [2, 3],
    walkMinutes: [30, 60],
    playsPerDay: [1, 3],
    batteryHours: 60,
  },
  puppy: {
    key: 'puppy',
    label: 'Golden Retriever puppy, 6 months',
    pet: {
      name: 'Sunny',
      breed: 'Golden Retriever',
      age: 0,
      weight: 35,
      sex: 'female',
      body_condition: 5,
      health_conditions: [],
    },
    heartRate: { sleep: 92, rest: 118, walk: 145, play: 180 },
    heatHeartRate: 1.8,
    collarWarmthC: 2.6,
    walksPerDay: [3, 3],
    walkMinutes: [15, 20],
    playsPerDay: [4, 6],
    batteryHours: 60,
  },
} as const satisfies Record<string, DogProfile>;
export type ProfileKey = keyof typeof DOG_PROFILES;
export const PROFILE_KEYS = Object.keys(DOG_PROFILES) as ProfileKey[];

/** The week's days' weather: lows, highs and dew points drawn within the climate, sunshine. */
export function weekWeather(kind: WeekKind, random: Random, start: number, days = 7): DayWeather[] {
  const c = CLIMATES[kind];
  return Array.from({ length: days }, (_, i) => {
    const sunshine = random() < 0.7 ? between(random, 0.75, 1) : between(random, 0.2, 0.6);
    // A cloudy day is a little cooler than the range's top.
    const maxC = between(random, c.maxC[0], c.maxC[1]) - (1 - sunshine) * 1.5;
    return {
      day: start + i * DAY_MS,
      minC: between(random, c.minC[0], c.minC[1]),
      maxC,
      dewPointC: between(random, c.dewPointC[0], c.dewPointC[1]),
      sunshine,
    };
  });
}

/** A segment builder that keeps a day's stretches back to back. */
class DayPlan {
  readonly segments: Segment[] = [];
  constructor(public at: number) {}
  add(
    minutes: number,
    behaviour: Behaviour,
    place: Place = 'indoors',
    collar: Segment['collar'] = 'worn',
  ) {
    const m = Math.max(1, Math.round(minutes));
    this.segments.push({
      start: this.at,
      end: this.at + m * MINUTE_MS,
      behaviour,
      place,
      collar,
    });
    this.at += m * MINUTE_MS;
  }
  /** Fills the time until `until` with the dog dozing and lying about the house. */
  idleUntil(until: number, random: Random) {
    while (this.at < until - MINUTE_MS) {
      const left = (until - this.at) / MINUTE_MS;
      const roll = random();
      if (roll < 0.5) this.add(Math.min(left, between(random, 25, 110)), 'nap');
      else if (roll < 0.85) this.add(Math.min(left, between(random, 8, 35)), 'rest');
      else if (roll < 0.95) this.add(Math.min(left, between(random, 3, 12)), 'potter');
      // Out in the garden for a while.
      else this.add(Math.min(left, between(random, 5, 20)), 'potter', 'outdoors');
    }
    if (this.at < until) this.add((until - this.at) / MINUTE_MS, 'rest');
  }
}

export interface DayOptions {
  profile: DogProfile;
  kind: WeekKind;
  /** Midnight of the day. */
  day: number;
  random: Random;
  /** Put the collar on its charger this evening. */
  charge: boolean;
  /** Leave the collar on a sunny windowsill for a while this day (the dog goes without it). */
  windowsill: boolean;
}

/**
 * One day, midnight to midnight: asleep until 06:00–07:45 (a short wake in the night), a
 * morning walk and breakfast, the day dozing and lying about with play bursts and maybe a
 * midday walk, an evening walk and dinner, the evening on the sofa, maybe the collar on its
 * charger, bed at 22:00–23:30. In a hot week the owner walks early and late.
 */
export function planDay(o: DayOptions): Segment[] {
  const { profile, random, day } = o;
  const hot = o.kind === 'hot';
  const p = new DayPlan(day);
  const h = (hours: number) => day + hours * HOUR_MS;
  const walkLength = () => between(random, profile.walkMinutes[0], profile.walkMinutes[1]);
  // The night: asleep, up once for a few minutes.
  const wake = h(between(random, 6, 7.75) - (hot ? 0.5 : 0));
  const nightWake = h(between(random, 1.5, 4.5));
  p.add((nightWake - p.at) / MINUTE_MS, 'sleep');
  p.add(between(random, 2, 8), 'rest');
  p.add((wake - p.at) / MINUTE_MS, 'sleep');
  p.add(between(random, 10, 30), 'potter');
  p.add(walkLength(), 'walk', 'outdoors');
  p.add(between(random, 4, 9), 'meal');
  p.add(between(random, 10, 25), 'rest');

  const walks = intBetween(random, profile.walksPerDay[0], profile.walksPerDay[1]);
  const plays = intBetween(random, profile.playsPerDay[0], profile.playsPerDay[1]);
  const eveningWalk = h(hot ? between(random, 19.5, 20.75) : between(random, 17.5, 19.5));
  // The day's fixed points: a midday walk (when three a day), play bursts, the windowsill.
  // `must`: happens even when something before it ran late (then straight after it).
  const events: { at: number; run: () => void; must?: boolean }[] = [];
  if (walks >= 3) {
    const at = h(hot ? between(random, 11, 12.5) : between(random, 12, 14.5));
    // A short one in the heat.
    events.push({
      at,
      run: () => p.add(walkLength() * (hot ? 0.6 : 1), 'walk', 'outdoors'),
      must: true,
    });
  }
  for (let i = 0; i < plays; i++) {
    const at = h(between(random, 9.5, 17));
    const outside = random() < 0.4; // fetch in the garden, else tug and chase indoors
    events.push({
      at,
      run: () => p.add(between(random, 3, 15), 'play', outside ? 'outdoors' : 'indoors'),
    });
  }
  if (o.windowsill) {
    // Taken off (a bath, a brush) and put down on the sill in the sun, then back on.
    const at = h(between(random, 10, 12.5));
    events.push({
      at,
      run: () => p.add(between(random, 90, 180), 'rest', 'indoors', 'windowsill'),
      must: true,
    });
  }
  events.sort((a, b) => a.at - b.at);
  for (const e of events) {
    if ((e.at <= p.at && !e.must) || e.at >= eveningWalk - 20 * MINUTE_MS) continue;
    p.idleUntil(e.at, random);
    e.run();
  }
  p.idleUntil(eveningWalk, random);
  p.add(walkLength(), 'walk', 'outdoors');
  // On the charger for the evening, taken off as they come in from the walk (its last heart
  // rate a walk's) or later on; the dog eats and rests on the sofa without it.
  const offAtTheDoor = o.charge && random() < 0.4;
  const cameOff = p.at;
  p.add(between(random, 4, 9), 'meal', 'indoors', offAtTheDoor ? 'charger' : 'worn');
  const bed = h(between(random, 22, 23.5));
  if (o.charge) {
    const on = offAtTheDoor ? cameOff : Math.max(p.at, h(between(random, 20.5, 21.75)));
    p.idleUntil(on, random);
    const back = Math.min(bed, on + between(random, 60, 150) * MINUTE_MS);
    p.add((back - p.at) / MINUTE_MS, 'rest', 'indoors', 'charger');
  }
  p.idleUntil(bed, random);
  p.add((day + DAY_MS - p.at) / MINUTE_MS, 'sleep');
  // Rounding may run a few minutes over midnight; the next day starts at its midnight.
  return clip(p.segments, day, day + DAY_MS);
}

function clip(segments: Segment[], from: number, to: number): Segment[] {
  return segments
    .map((s) => ({ ...s, start: Math.max(s.start, from), end: Math.min(s.end, to) }))
    .filter((s) => s.end > s.start);
}

export interface WeekOptions {
  profile: DogProfile;
  kind: WeekKind;
  seed: number;
  /** Midnight UTC of the first day; WEEK_START by default. */
  start?: number;
  days?: number;
}

export interface Week {
  profile: DogProfile;
  kind: WeekKind;
  seed: number;
  weather: DayWeather[];
  segments: Segment[];
  minutes: TraceMinute[];
}

/**
 * A week (or `days` days) of a dog's life, a reading a minute. The collar is charged on the
 * evenings its battery is below about 60 % (every second or third evening), and left once on a
 * sunny windowsill, on a sunny day of the week. A few stretches a day of 3–25 minutes with no
 * readings (out of radio reach), and the odd field or reading missing.
 */
export function generateWeek(o: WeekOptions): Week {
  const days = o.days ?? 7;
  const start = o.start ?? WEEK_START;
  const random = seededRandom(o.seed);
  const weather = weekWeather(o.kind, random, start, days);
  // The windowsill: on a sunny day after the first (the sunniest when none is clearly sunny).
  const sunny = weather.map((w, i) => ({ i, w })).filter(({ i, w }) => i > 0 && w.sunshine > 0.7);
  const sunniest = weather.reduce(
    (best, w, i) => (i > 0 && w.sunshine > weather[best]!.sunshine ? i : best),
    1,
  );
  const sillDay = sunny.length ? sunny[Math.floor(random() * sunny.length)]!.i : sunniest;
  const segments: Segment[] = [];
  const startBattery = between(random, 70, 100);
  let battery = startBattery;
  const drainPerDay = (24 * 100) / o.profile.batteryHours;
  for (let i = 0; i < days; i++) {
    const charge = battery - drainPerDay * 0.85 < 25 || random() < 0.15;
    segments.push(
      ...planDay({
        profile: o.profile,
        kind: o.kind,
        day: start + i * DAY_MS,
        random,
        charge,
        windowsill: i === sillDay && days >= 3,
      }),
    );
    battery = charge ? 100 - drainPerDay * 0.1 : battery - drainPerDay;
  }
  const gaps: [number, number][] = [];
  for (let i = 0; i < days; i++) {
    const n = intBetween(random, 0, 3);
    for (let g = 0; g < n; g++) {
      const at = start + i * DAY_MS + Math.round(between(random, 0, 24 * 60)) * MINUTE_MS;
      gaps.push([at, at + Math.round(between(random, 3, 25)) * MINUTE_MS]);
    }
  }
  gaps.sort((a, b) => a[0] - b[0]);
  const minutes = render({
    profile: o.profile,
    days: weather,
    segments,
    seed: o.seed,
    gaps,
    battery: startBattery,
  });
  return { profile: o.profile, kind: o.kind, seed: o.seed, weather, segments, minutes };
}
