import {
  HEALTH_CONDITIONS,
  LIMITS,
  SEXES,
  type Dog,
  type DogInput,
  type HealthCondition,
  type Sex,
} from '@pawguard/shared';
import { isBlank } from '@/lib/utils';

/** What the pet sheet holds: every field as typed or picked ('' is Unknown). */
export type PetFormValues = {
  name: string;
  breed: string;
  age: string;
  weight: string;
  medical_info: string;
  emergency_contact: string;
  sex: Sex | '';
  /** '1'–'9', or '' when unknown. */
  body_condition: string;
  health_conditions: readonly HealthCondition[];
};

export const EMPTY_PET_FORM: PetFormValues = {
  name: '',
  breed: '',
  age: '',
  weight: '',
  medical_info: '',
  emergency_contact: '',
  sex: '',
  body_condition: '',
  health_conditions: [],
};

/** The sheet's choices for what helps judge heat risk; the first of each is Unknown. */
export const SEX_OPTIONS: readonly { value: Sex | ''; label: string }[] = [
  { value: '', label: 'Unknown' },
  { value: 'female', label: 'Female' },
  { value: 'male', label: 'Male' },
];

/** The 9-point body condition score vets use, with a few words each (5 is ideal). */
export const BODY_CONDITION_OPTIONS: readonly { value: string; label: string }[] = [
  { value: '', label: 'Unknown' },
  ...[
    'very thin',
    'thin',
    'lean',
    'slightly lean',
    'ideal',
    'slightly heavy',
    'heavy',
    'very heavy',
    'obese',
  ].map((words, i) => ({ value: String(i + 1), label: `${i + 1} – ${words}` })),
];

export const HEALTH_CONDITION_OPTIONS: readonly { value: HealthCondition; label: string }[] = [
  { value: 'airway', label: 'Airway (e.g. BOAS, laryngeal paralysis)' },
  { value: 'breathing', label: 'Breathing' },
  { value: 'heart', label: 'Heart' },
];

const isSex = (value: string): value is Sex => (SEXES as readonly string[]).includes(value);

export function petFormValues(dog: Dog): PetFormValues {
  return {
    name: dog.name,
    breed: dog.breed ?? '',
    age: dog.age === null ? '' : String(dog.age),
    weight: dog.weight === null ? '' : String(dog.weight),
    medical_info: dog.medical_info ?? '',
    emergency_contact: dog.emergency_contact ?? '',
    sex: dog.sex ?? '',
    body_condition: dog.body_condition === null ? '' : String(dog.body_condition),
    health_conditions: dog.health_conditions,
  };
}

/**
 * The request body (spec section 5): the name trimmed, age parsed as an integer, weight as a
 * decimal, and empty optional fields omitted (PUT replaces, so an omitted field is cleared:
 * an Unknown sex or body condition, no known conditions).
 */
export function toPetInput(values: PetFormValues): DogInput {
  const input: DogInput = { name: values.name.trim() };
  if (!isBlank(values.breed)) input.breed = values.breed.trim();
  const age = Number.parseInt(values.age, 10);
  if (!Number.isNaN(age)) input.age = age;
  const weight = Number.parseFloat(values.weight);
  if (!Number.isNaN(weight)) input.weight = weight;
  if (!isBlank(values.medical_info)) input.medical_info = values.medical_info.trim();
  if (!isBlank(values.emergency_contact)) input.emergency_contact = values.emergency_contact.trim();
  if (isSex(values.sex)) input.sex = values.sex;
  const bodyCondition = Number.parseInt(values.body_condition, 10);
  if (!Number.isNaN(bodyCondition)) input.body_condition = bodyCondition;
  // In the order the server lists them, each once.
  const conditions = HEALTH_CONDITIONS.filter((c) => values.health_conditions.includes(c));
  if (conditions.length > 0) input.health_conditions = conditions;
  return input;
}

export type PetFormErrors = Partial<Record<'age' | 'weight', string>>;

/**
 * What the server would refuse (DESIGN §4: age a whole number 0–40, weight 0.1–400 lbs), said
 * under the field before anything is sent: 2.7 years must not be saved as 2 silently.
 */
export function petFormErrors(values: PetFormValues): PetFormErrors {
  const errors: PetFormErrors = {};
  const age = values.age.trim();
  if (age !== '') {
    if (!/^\d+$/.test(age)) errors.age = 'Age must be a whole number of years.';
    else if (Number(age) > LIMITS.petAgeMax)
      errors.age = `Age must be between 0 and ${LIMITS.petAgeMax} years.`;
  }
  const weight = values.weight.trim();
  if (weight !== '') {
    const n = Number(weight);
    if (!Number.isFinite(n) || n < LIMITS.petWeightMin || n > LIMITS.petWeightMax)
      errors.weight = `Weight must be between ${LIMITS.petWeightMin} and ${LIMITS.petWeightMax} lbs.`;
  }
  return errors;
}
