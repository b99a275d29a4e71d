// Dangerous heat episodes as short traces with a realistic lead-in: the days before (for the
// heat the dog is used to) and the day itself up to the episode, a reading a minute. Each says
// when the danger starts, so a time to the first alert is measured from there.
import {
  DAY_MS,
  HOUR_MS,
  MINUTE_MS,
  outdoorC,
  render,
  type DayWeather,
  type DogProfile,
  type Segment,
  type TraceMinute,
} from './life.js';
import { DOG_PROFILES, WEEK_START, planDay, weekWeather, type WeekKind } from './week.js';
import { seededRandom } from './vitals.js';

export type EpisodeKind = 'parked-car' | 'exertion' | 'hot-room';

export interface Episode {
  key: string;
  label: string;
  kind: EpisodeKind;
  profile: DogProfile;
  /** When the danger starts (epoch ms): the car parked, the exertion begun, the room at 30 °C. */
  dangerAt: number;
  /** The owner should hear within this many minutes of `dangerAt` (null: no budget but "alerted"). */
  budgetMinutes: number | null;
  weather: DayWeather[];
  segments: Segment[];
  /** The whole trace, lead-in included, oldest first. */
  minutes: TraceMinute[];
}

/**
 * A parked car's cabin with the windows up in the sun: it rises towards outdoors + RISE, 80 %
 * of the way within the first 30 minutes (studies of closed cars on sunny days). At 24 °C
 * outdoors that is about 1.8 °C per 5 minutes over the first half hour, proportionally less on
 * a cooler day and more on a hotter one.
 */
const CAR_TAU_MIN = 30 / Math.log(5);
export const cabinRiseC = (outdoorC: number) => ((1.8 * 6) / 0.8) * (outdoorC / 24);
/** Air conditioning on the drive: the cabin at about 21 °C (never above outdoors). */
const rideC = (outdoorC: number) => Math.min(outdoorC, 21);
/** How fast a cooled cabin takes the outdoor air once the engine is off (minutes). */
const CABIN_MIXING_MIN = 3;

/** The episode's day, the days before it, and what the dog does up to the episode and in it. */
interface EpisodeSetup {
  key: string;
  label: string;
  kind: EpisodeKind;
  profile: DogProfile;
  budgetMinutes: number | null;
  /** The days before: how many, and of which climate. */
  before: { days: number; kind: WeekKind };
  /** The collar left on a sunny windowsill this many days before the episode's day. */
  windowsillDaysBefore?: number;
  /** The episode's day. */
  day: Omit<DayWeather, 'day'>;
  /** Hour of the day the lead-in ends and `episode` starts. */
  startHour: number;
  /** The episode's segments from `start`, and when the danger starts. */
  episode: (
    start: number,
    outdoorAt: (at: number) => number,
  ) => {
    segments: Segment[];
    dangerAt: number;
  };
}

const seg = (start: number, minutes: number, rest: Omit<Segment, 'start' | 'end'>): Segment => ({
  start,
  end: start + minutes * MINUTE_MS,
  ...rest,
});

function parkedCar(outdoor: number): EpisodeSetup {
  const before: WeekKind = outdoor >= 28 ? 'hot' : outdoor >= 22 ? 'warm' : 'mild';
  return {
    key: `parked-car-${outdoor}`,
    label: `parked car at ${outdoor} °C`,
    kind: 'parked-car',
    profile: DOG_PROFILES.labrador,
    budgetMinutes: 5,
    before: { days: 3, kind: before },
    // Outdoors about `outdoor` in the early afternoon, sunny.
    day: { minC: outdoor - 8, maxC: outdoor + 1, dewPointC: outdoor - 10, sunshine: 0.95 },
    startHour: 13.5,
    episode: (start, outdoorAt) => {
      // A 20-minute drive with the air conditioning on, then parked in the sun; the dog lies
      // still on the back seat. The cooled cabin takes the outdoor air within a few minutes
      // while the sun heats it further.
      const parked = start + 20 * MINUTE_MS;
      const atPark = outdoorAt(parked);
      const rise = cabinRiseC(atPark);
      const cooledBy = Math.max(0, atPark - rideC(atPark));
      return {
        dangerAt: parked,
        segments: [
          seg(start, 20, {
            behaviour: 'ride',
            place: 'car',
            collar: 'worn',
            airC: (at) => rideC(outdoorAt(at)),
          }),
          seg(parked, 60, {
            behaviour: 'still',
            place: 'car',
            collar: 'worn',
            airC: (at) => {
              const minutes = (at - parked) / MINUTE_MS;
              return (
                outdoorAt(at) +
                rise * (1 - Math.exp(-minutes / CAR_TAU_MIN)) -
                cooledBy * Math.exp(-minutes / CABIN_MIXING_MIN)
              );
            },
          }),
        ],
      };
    },
  };
}

/**
 * The episodes: a still dog in a car parked in the sun at 18, 24 and 30 °C; a flat-faced dog
 * playing fetch in warm humid weather; an old dog with a heart condition shut in a room that
 * the sun heats past 30 °C; a healthy dog on a long midday walk on the first hot day after cool
 * ones.
 */
export const EPISODES: readonly EpisodeSetup[] = [
  parkedCar(18),
  parkedCar(24),
  parkedCar(30),
  {
    key: 'humid-exertion-frenchie',
    label: 'French Bulldog at play, 28 °C and humid',
    kind: 'exertion',
    profile: DOG_PROFILES.frenchie,
    budgetMinutes: 10,
    before: { days: 3, kind: 'warm' },
    // A sultry afternoon: about 28 °C with a dew point of 22 °C (70 % humidity).
    day: { minC: 21, maxC: 28.5, dewPointC: 22, sunshine: 0.6 },
    startHour: 16,
    episode: (start) => ({
      // A brisk walk to the park, fetch, and the walk home, without a break.
      dangerAt: start,
      segments: [
        seg(start, 10, { behaviour: 'walk', place: 'outdoors', collar: 'worn' }),
        seg(start + 10 * MINUTE_MS, 20, { behaviour: 'play', place: 'outdoors', collar: 'worn' }),
        seg(start + 30 * MINUTE_MS, 15, { behaviour: 'walk', place: 'outdoors', collar: 'worn' }),
      ],
    }),
  },
  {
    key: 'hot-room-cavalier',
    label: 'old Cavalier shut in a room heating past 30 °C',
    kind: 'hot-room',
    profile: DOG_PROFILES.cavalier,
    budgetMinutes: null,
    before: { days: 3, kind: 'warm' },
    day: { minC: 22, maxC: 33, dewPointC: 16, sunshine: 1 },
    startHour: 11,
    episode: (start) => {
      // The owner goes out, leaving the dog in a closed, sunny room at 27 °C that climbs
      // towards 35 °C; the danger starts when it passes 30 °C.
      const air = (at: number) => 27 + 8 * (1 - Math.exp(-(at - start) / MINUTE_MS / 50));
      const dangerAt = start + Math.ceil(-50 * Math.log(1 - 3 / 8)) * MINUTE_MS;
      const parts: Segment[] = [];
      // Lying, dozing and restless by turns.
      const pattern: [number, 'rest' | 'nap' | 'potter'][] = [
        [20, 'rest'],
        [30, 'nap'],
        [5, 'potter'],
        [25, 'rest'],
        [20, 'nap'],
        [5, 'potter'],
        [45, 'rest'],
      ];
      let at = start;
      for (const [minutes, behaviour] of pattern) {
        parts.push(seg(at, minutes, { behaviour, place: 'indoors', collar: 'worn', airC: air }));
        at += minutes * MINUTE_MS;
      }
      return { dangerAt, segments: parts };
    },
  },
  firstHotDay('first-hot-day-labrador', 'Labrador walked at midday on the first hot day'),
  // The same, with the collar left on a sunny windowsill two days before: its heat is not the
  // dog's, so the dog is no more used to heat than without it.
  {
    ...firstHotDay(
      'first-hot-day-after-windowsill',
      'first hot day, collar on a sill 2 days before',
    ),
    windowsillDaysBefore: 2,
  },
];

function firstHotDay(key: string, label: string): EpisodeSetup {
  return {
    key,
    label,
    kind: 'exertion',
    profile: DOG_PROFILES.labrador,
    budgetMinutes: 10,
    before: { days: 5, kind: 'cool' },
    day: { minC: 20, maxC: 33, dewPointC: 17, sunshine: 1 },
    startHour: 12.5,
    episode: (start) => ({
      // A long walk with a game of fetch in the middle, in the sun.
      dangerAt: start,
      segments: [
        seg(start, 15, { behaviour: 'walk', place: 'outdoors', collar: 'worn' }),
        seg(start + 15 * MINUTE_MS, 15, { behaviour: 'play', place: 'outdoors', collar: 'worn' }),
        seg(start + 30 * MINUTE_MS, 20, { behaviour: 'walk', place: 'outdoors', collar: 'worn' }),
      ],
    }),
  };
}
export const EPISODE_KEYS = EPISODES.map((e) => e.key);

/**
 * Builds an episode's trace: the days before as ordinary days of their climate, the episode's
 * day as an ordinary day up to `startHour`, then the episode. Seeded like a week.
 */
export function generateEpisode(key: string, seed: number, start = WEEK_START): Episode {
  const setup = EPISODES.find((e) => e.key === key);
  if (!setup) throw new Error(`No episode ${key}; there are: ${EPISODE_KEYS.join(', ')}`);
  const random = seededRandom(seed);
  const n = setup.before.days;
  const sillDay = setup.windowsillDaysBefore === undefined ? -1 : n - setup.windowsillDaysBefore;
  const weather = [
    ...weekWeather(setup.before.kind, random, start, n),
    { day: start + n * DAY_MS, ...setup.day },
  ];
  // The windowsill's day is a sunny one.
  if (sillDay >= 0) weather[sillDay]!.sunshine = Math.max(weather[sillDay]!.sunshine, 0.9);
  const segments: Segment[] = [];
  for (let i = 0; i < n; i++)
    segments.push(
      ...planDay({
        profile: setup.profile,
        kind: setup.before.kind,
        day: start + i * DAY_MS,
        random,
        // Charged every evening; on the windowsill only where the episode says so.
        charge: true,
        windowsill: i === sillDay,
      }),
    );
  const day = start + n * DAY_MS;
  const episodeStart = day + setup.startHour * HOUR_MS;
  const morning = planDay({
    profile: setup.profile,
    kind: setup.before.kind,
    day,
    random,
    charge: false,
    windowsill: false,
  });
  for (const s of morning) {
    if (s.start >= episodeStart) break;
    segments.push({ ...s, end: Math.min(s.end, episodeStart) });
  }
  // The outdoor air as the renderer computes it, for the episode's car and its rise.
  const outdoorAt = (at: number) => outdoorC(weather, at);
  const { segments: episode, dangerAt } = setup.episode(episodeStart, outdoorAt);
  segments.push(...episode);
  const minutes = render({ profile: setup.profile, days: weather, segments, seed, battery: 85 });
  return {
    key: setup.key,
    label: setup.label,
    kind: setup.kind,
    profile: setup.profile,
    dangerAt,
    budgetMinutes: setup.budgetMinutes,
    weather,
    segments,
    minutes,
  };
}
