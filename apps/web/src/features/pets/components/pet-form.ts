import { z } from 'zod';
import {
  dogInputSchema,
  HEALTH_CONDITIONS,
  LIMITS,
  type Dog,
  type DogInput,
  type HealthCondition,
  type Sex,
} from '@pawguard/shared';
import { formResolver } from '@/lib/form';

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

/** A number field as typed: blank is unknown (null); anything else is read as a number. */
const numberText = <T extends z.ZodType>(field: T) =>
  z
    .string()
    .trim()
    .transform((v) => (v === '' ? null : Number(v)))
    // The pet fields take unknown input (they also read '' as null); here they get a number.
    .pipe(field as unknown as z.ZodType<z.output<T>, number | null>);

const shape = dogInputSchema.shape;

/**
 * The sheet's values checked as the server checks a pet (DESIGN §4: age a whole number 0–40,
 * weight 0.1–400 lbs; 2.7 years must not be saved as 2 silently), the number fields read
 * from what was typed and the known conditions put in the order the server lists them.
 */
export const petFormSchema = z.object({
  name: shape.name,
  breed: shape.breed,
  age: numberText(shape.age),
  weight: numberText(shape.weight),
  medical_info: shape.medical_info,
  emergency_contact: shape.emergency_contact,
  sex: shape.sex,
  body_condition: numberText(shape.body_condition),
  health_conditions: z
    .array(z.enum(HEALTH_CONDITIONS))
    .readonly()
    .transform((picked) => HEALTH_CONDITIONS.filter((c) => picked.includes(c)))
    .pipe(shape.health_conditions.unwrap().unwrap()),
});

const AGE_RANGE = `Age must be between 0 and ${LIMITS.petAgeMax} years.`;

export const petFormResolver = formResolver(petFormSchema, {
  required: ['name'],
  wording: {
    name: { required: 'Pet name is required' },
    age: {
      invalid: ({ type }) =>
        type === 'too_small' || type === 'too_big'
          ? AGE_RANGE
          : 'Age must be a whole number of years.',
    },
    weight: {
      invalid: `Weight must be between ${LIMITS.petWeightMin} and ${LIMITS.petWeightMax} lbs.`,
    },
  },
});

/**
 * The request body (spec section 5) from the checked values: empty optional fields omitted
 * (PUT replaces, so an omitted field is cleared: an Unknown sex or body condition, no known
 * conditions).
 */
export function toPetInput(checked: DogInput): DogInput {
  return Object.fromEntries(
    Object.entries(checked).filter(
      ([, v]) => v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0),
    ),
  ) as DogInput;
}
