import { z } from 'zod';
import {
  dogInputSchema,
  HEALTH_CONDITIONS,
  LIMITS,
  type Dog,
  type DogInput,
  type HealthCondition,
  type Sex,
  weightFieldValue,
  weightToLbs,
  lbsToKg,
  type WeightUnit,
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

/** The sheet's values for a pet, its weight in the owner's unit (stored in lbs). */
export function petFormValues(dog: Dog, weightUnit: WeightUnit): PetFormValues {
  return {
    name: dog.name,
    breed: dog.breed ?? '',
    age: dog.age === null ? '' : String(dog.age),
    weight: weightFieldValue(dog.weight, weightUnit),
    medical_info: dog.medical_info ?? '',
    emergency_contact: dog.emergency_contact ?? '',
    sex: dog.sex ?? '',
    body_condition: dog.body_condition === null ? '' : String(dog.body_condition),
    health_conditions: dog.health_conditions,
  };
}

/**
 * A number field as typed: blank is unknown (null); anything else is read as a number, and
 * put in the API's unit by `toApi` (a weight typed in kg becomes lbs).
 */
const numberText = <T extends z.ZodType>(field: T, toApi = (n: number) => n) =>
  z
    .string()
    .trim()
    .transform((v) => (v === '' ? null : toApi(Number(v))))
    // The pet fields take unknown input (they also read '' as null); here they get a number.
    .pipe(field as unknown as z.ZodType<z.output<T>, number | null>);

const shape = dogInputSchema.shape;

/**
 * The sheet's values checked as the server checks a pet (DESIGN §4: age a whole number 0–40,
 * weight 0.1–400 lbs; 2.7 years must not be saved as 2 silently), the number fields read
 * from what was typed (the weight in the owner's unit, answered in lbs) and the known
 * conditions put in the order the server lists them.
 */
const petFormSchemaIn = (weightUnit: WeightUnit) =>
  z.object({
    name: shape.name,
    breed: shape.breed,
    age: numberText(shape.age),
    weight: numberText(shape.weight, (n) => weightToLbs(n, weightUnit)),
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

/**
 * The API's weight range (0.1–400 lbs) in kg, on the spec's step of 0.1 (section 5) in kg too:
 * 0.1–181.4.
 */
export const WEIGHT_KG_RANGE = [
  Math.ceil(lbsToKg(LIMITS.petWeightMin) * 10) / 10,
  Math.floor(lbsToKg(LIMITS.petWeightMax) * 10) / 10,
] as const;
const WEIGHT_RANGE: Record<WeightUnit, string> = {
  lbs: `Weight must be between ${LIMITS.petWeightMin} and ${LIMITS.petWeightMax} lbs.`,
  kg: `Weight must be between ${WEIGHT_KG_RANGE[0]} and ${WEIGHT_KG_RANGE[1]} kg.`,
};

const petFormResolverIn = (weightUnit: WeightUnit) =>
  formResolver(petFormSchemaIn(weightUnit), {
    required: ['name'],
    wording: {
      name: { required: 'Pet name is required' },
      age: {
        invalid: ({ type }) =>
          type === 'too_small' || type === 'too_big'
            ? AGE_RANGE
            : 'Age must be a whole number of years.',
      },
      weight: { invalid: WEIGHT_RANGE[weightUnit] },
    },
  });

/** The sheet's resolvers, built once: the weight typed in lbs or in kg. */
export const petFormResolvers = {
  lbs: petFormResolverIn('lbs'),
  kg: petFormResolverIn('kg'),
} as const;

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
