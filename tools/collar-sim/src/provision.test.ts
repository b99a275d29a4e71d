import { describe, expect, it } from 'vitest';
import { matchBreed } from '@pawguard/shared';
import { DEMO_BREEDS, demoPet } from './provision.js';

describe('the demo’s dogs', () => {
  const pets = Array.from({ length: 60 }, (_, n) => demoPet(n));

  it('weigh what their breed weighs and are of an age it lives to', () => {
    for (const pet of pets) {
      const { weightLbs, ageYears } = DEMO_BREEDS.find((b) => b.breed === pet.breed)!;
      expect(pet.weight, `${pet.name}, a ${pet.breed}`).toBeGreaterThanOrEqual(weightLbs[0]);
      expect(pet.weight, `${pet.name}, a ${pet.breed}`).toBeLessThanOrEqual(weightLbs[1]);
      expect(pet.age, `${pet.name}, a ${pet.breed}`).toBeGreaterThanOrEqual(ageYears[0]);
      expect(pet.age, `${pet.name}, a ${pet.breed}`).toBeLessThanOrEqual(ageYears[1]);
    }
  });

  it('has no 10 lb Labrador and no 84 lb Beagle', () => {
    const of = (breed: string) => pets.filter((p) => p.breed === breed).map((p) => p.weight);
    expect(Math.min(...of('Labrador Retriever'))).toBeGreaterThanOrEqual(55);
    expect(Math.max(...of('Beagle'))).toBeLessThanOrEqual(30);
    expect(Math.max(...of('French Bulldog'))).toBeLessThanOrEqual(28);
  });

  it('are of breeds the heat-risk model knows, with varied weights within a breed', () => {
    for (const { breed } of DEMO_BREEDS) expect(matchBreed(breed)?.name, breed).toBe(breed);
    expect(
      new Set(pets.filter((p) => p.breed === 'Labrador Retriever').map((p) => p.weight)).size,
    ).toBeGreaterThan(1);
  });
});
