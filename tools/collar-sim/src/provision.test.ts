import { describe, expect, it } from 'vitest';
import { matchBreed } from '@pawguard/shared';
import { DEMO_BREEDS, demoPet, refittedDemoPet } from './provision.js';

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

  it('from an earlier demo are refitted: a 10 lb Labrador and a Husky of 84 lb get their breed’s weight', () => {
    expect(refittedDemoPet({ breed: 'Labrador Retriever', weight: 10, age: 1 }, 0)).toEqual({
      breed: 'Labrador Retriever',
      age: 1,
      weight: 55,
    });
    const husky = refittedDemoPet({ breed: 'Husky', weight: 84, age: 3 }, 2)!;
    expect(husky.breed).toBe('Siberian Husky');
    expect(husky.weight).toBeGreaterThanOrEqual(35);
    expect(husky.weight).toBeLessThanOrEqual(60);
    // A dog that already fits, or of a breed the demo never gives, is left as it is.
    expect(refittedDemoPet({ breed: 'Beagle', weight: 24, age: 6 }, 1)).toBeNull();
    expect(refittedDemoPet({ breed: 'Shiba Inu', weight: 20, age: 4 }, 1)).toBeNull();
  });
});
