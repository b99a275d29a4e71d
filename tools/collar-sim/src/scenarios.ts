// The situations `--scenario` names, for demos of the heat-risk judgement: every collar of the
// run lives the same one, on a dog whose profile fits it. How each one behaves (weather, what
// the dog does, a backlog of past days) is in vitals.ts.
import type { PetProfile } from './provision.js';

export const SCENARIO_NAMES = [
  'mild-exertion',
  'parked-car',
  'humid-walk',
  'first-hot-day',
  'acclimatised-hot-day',
  'old-dog-hot-room',
  'pleasant-rest',
  'step-change',
] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

export const isScenarioName = (name: string): name is ScenarioName =>
  (SCENARIO_NAMES as readonly string[]).includes(name);

export interface ScenarioInfo {
  /** What the start line and --help say it is. */
  description: string;
  /** The pet the collar is on; a pet kept from an earlier run is updated to it. */
  pet: PetProfile;
}

// Scenarios that name no particular dog get a healthy adult of a medium-risk breed, so a pet
// kept from an earlier run (an old Cavalier with a heart condition) does not colour the result.
export const SCENARIOS: Record<ScenarioName, ScenarioInfo> = {
  'mild-exertion': {
    description: 'a French Bulldog walking and playing on a mild day',
    pet: { breed: 'French Bulldog', weight: 26, age: 4 },
  },
  'parked-car': {
    description: 'a dog left in a parked car, then out in the shade',
    pet: { breed: 'Beagle', weight: 24, age: 6 },
  },
  'humid-walk': {
    description: 'a Labrador on a long walk in humid heat',
    pet: { breed: 'Labrador Retriever', weight: 65, age: 5 },
  },
  'first-hot-day': {
    description: 'a Border Collie out on the first hot day after cool ones',
    pet: { breed: 'Border Collie', weight: 40, age: 3 },
  },
  'acclimatised-hot-day': {
    description: 'a Border Collie out on a hot day after hot ones',
    pet: { breed: 'Border Collie', weight: 40, age: 3 },
  },
  'old-dog-hot-room': {
    description: 'an old Cavalier with a heart condition in a hot room',
    pet: {
      breed: 'Cavalier King Charles Spaniel',
      weight: 18,
      age: 13,
      health_conditions: ['heart'],
    },
  },
  'pleasant-rest': {
    description: 'a dog resting on a pleasant day',
    pet: { breed: 'Labrador Retriever', weight: 65, age: 5 },
  },
  'step-change': {
    description: 'a dog going from a cool room onto a hot patio',
    pet: { breed: 'Labrador Retriever', weight: 62, age: 4 },
  },
};
