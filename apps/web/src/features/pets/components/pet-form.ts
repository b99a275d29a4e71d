import { LIMITS, type Dog, type DogInput } from '@pawguard/shared';
import { isBlank } from '@/lib/utils';

/** What the pet sheet holds: every field as typed. */
export type PetFormValues = {
  name: string;
  breed: string;
  age: string;
  weight: string;
  medical_info: string;
  emergency_contact: string;
};

export const EMPTY_PET_FORM: PetFormValues = {
  name: '',
  breed: '',
  age: '',
  weight: '',
  medical_info: '',
  emergency_contact: '',
};

export function petFormValues(dog: Dog): PetFormValues {
  return {
    name: dog.name,
    breed: dog.breed ?? '',
    age: dog.age === null ? '' : String(dog.age),
    weight: dog.weight === null ? '' : String(dog.weight),
    medical_info: dog.medical_info ?? '',
    emergency_contact: dog.emergency_contact ?? '',
  };
}

/**
 * The request body (spec section 5): the name trimmed, age parsed as an integer, weight as a
 * decimal, and empty optional fields omitted (PUT replaces, so an omitted field is cleared).
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
