// Sets up virtual collars through the public API, as an admin and an owner would: the admin
// pre-populates collars (the only answer that carries their keys), the owner claims each for
// a pet. Also used by the benchmarks, which give collars straight to a user instead.
import { randomBytes, randomInt } from 'node:crypto';
import {
  authResponseSchema,
  deviceResponseSchema,
  devicesResponseSchema,
  dogResponseSchema,
  dogsResponseSchema,
  generateDeviceId,
  PRE_POPULATE_MAX,
  prePopulateResponseSchema,
  type AuthResponse,
  type Device,
  type Dog,
  type DogInput,
} from '@pawguard/shared';
import type { z } from 'zod';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** One JSON call to the server, its answer parsed with the contract's schema. */
export async function callApi<S extends z.ZodType>(
  base: string,
  method: string,
  path: string,
  schema: S,
  { token, body }: { token?: string; body?: unknown } = {},
): Promise<z.infer<S>> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) {
    let message = text;
    try {
      message = (JSON.parse(text) as { error?: string }).error ?? text;
    } catch {
      // not JSON: keep the text
    }
    throw new ApiError(res.status, `${method} ${path}: ${res.status} ${message}`);
  }
  return schema.parse(JSON.parse(text));
}

export interface Account {
  email: string;
  password: string;
}

export const signIn = (base: string, { email, password }: Account): Promise<AuthResponse> =>
  callApi(base, 'POST', '/api/auth/login', authResponseSchema, { body: { email, password } });

/** Signs the account in, registering it first when it does not exist yet. */
export async function ensureAccount(
  base: string,
  account: Account & { name: string },
): Promise<AuthResponse> {
  try {
    return await callApi(base, 'POST', '/api/auth/register', authResponseSchema, {
      body: account,
    });
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) return signIn(base, account);
    throw err;
  }
}

/** A random, locally administered MAC address (the 0x02 bit set, never a vendor's). */
export function randomMac(): string {
  const bytes = randomBytes(6);
  bytes[0] = (bytes[0]! & 0xfc) | 0x02;
  return [...bytes].map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':');
}

export interface KeyedCollar {
  /** The server's id (UUID). */
  id: string;
  /** The printed Device ID, PET-XXXX. */
  device_id: string;
  device_key: string;
  /** Its MAC address, as the admin pre-populated it (the collar reports it itself too). */
  device_address: string;
}

/**
 * Pre-populates `count` new collars as the admin, 100 a call. A Device ID already taken
 * (the call is all or nothing, answering 409) is drawn again.
 */
export async function prePopulateCollars(
  base: string,
  adminToken: string,
  count: number,
): Promise<KeyedCollar[]> {
  const collars: KeyedCollar[] = [];
  let conflicts = 0;
  while (collars.length < count) {
    const ids = new Set<string>();
    const size = Math.min(PRE_POPULATE_MAX, count - collars.length);
    while (ids.size < size) ids.add(generateDeviceId(randomInt));
    const macs = new Map([...ids].map((id) => [id, randomMac()]));
    try {
      const { devices } = await callApi(
        base,
        'POST',
        '/api/admin/devices/pre-populate',
        prePopulateResponseSchema,
        {
          token: adminToken,
          body: {
            devices: [...macs].map(([device_id, device_address]) => ({
              device_id,
              device_address,
            })),
          },
        },
      );
      collars.push(
        ...devices.map(({ id, device_id, device_key }) => ({
          id,
          device_id,
          device_key,
          device_address: macs.get(device_id)!,
        })),
      );
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 409) || ++conflicts > 20) throw err;
    }
  }
  return collars;
}

/** Assigns pre-populated collars to a user (admin: POST /api/devices/register). */
async function registerToUser(
  base: string,
  adminToken: string,
  userId: string,
  collars: KeyedCollar[],
): Promise<void> {
  for (const c of collars) {
    await callApi(base, 'POST', '/api/devices/register', deviceResponseSchema, {
      token: adminToken,
      body: { device_id: c.device_id, user_id: userId },
    });
  }
}

/** Collars for the benchmarks: pre-populated and given to a user, on no pet. */
export async function collarsForUser(
  base: string,
  adminToken: string,
  userId: string,
  count: number,
): Promise<KeyedCollar[]> {
  const collars = await prePopulateCollars(base, adminToken, count);
  await registerToUser(base, adminToken, userId, collars);
  return collars;
}

const PET_NAMES = [
  'Biscuit',
  'Luna',
  'Max',
  'Bella',
  'Charlie',
  'Daisy',
  'Rocky',
  'Milo',
  'Coco',
  'Teddy',
  'Ruby',
  'Bear',
  'Nala',
  'Scout',
  'Willow',
  'Ollie',
  'Pepper',
  'Hazel',
  'Murphy',
  'Juniper',
];
/**
 * The demo's breeds, each with an adult weight range (lbs) from breed standards and a range of
 * ages within its usual life, so a demo dog reads as a real one (no 10 lb Labrador, no 84 lb
 * Beagle). Poodle: the standard size.
 */
export const DEMO_BREEDS: readonly {
  breed: string;
  weightLbs: readonly [number, number];
  ageYears: readonly [number, number];
}[] = [
  { breed: 'Labrador Retriever', weightLbs: [55, 80], ageYears: [1, 12] },
  { breed: 'Border Collie', weightLbs: [30, 45], ageYears: [1, 13] },
  { breed: 'Beagle', weightLbs: [20, 30], ageYears: [1, 13] },
  { breed: 'French Bulldog', weightLbs: [18, 28], ageYears: [1, 10] },
  { breed: 'Golden Retriever', weightLbs: [55, 75], ageYears: [1, 11] },
  { breed: 'Dachshund', weightLbs: [16, 32], ageYears: [1, 14] },
  { breed: 'Siberian Husky', weightLbs: [35, 60], ageYears: [1, 12] },
  { breed: 'Poodle', weightLbs: [40, 70], ageYears: [1, 13] },
  { breed: 'Boxer', weightLbs: [50, 75], ageYears: [1, 10] },
  { breed: 'Pug', weightLbs: [14, 18], ageYears: [1, 12] },
];

/** The n-th of the whole numbers lo…hi, spread so that neighbours differ. */
const spread = (n: number, [lo, hi]: readonly [number, number], step: number) =>
  lo + ((n * step) % (hi - lo + 1));

/**
 * The n-th demo pet: a name (numbered after the first twenty), a breed, and an age and a
 * weight (lbs) that fit the breed.
 */
export function demoPet(n: number) {
  const name = PET_NAMES[n % PET_NAMES.length]!;
  const { breed, weightLbs, ageYears } = DEMO_BREEDS[n % DEMO_BREEDS.length]!;
  return {
    name: n < PET_NAMES.length ? name : `${name} ${Math.floor(n / PET_NAMES.length) + 1}`,
    breed,
    age: spread(n, ageYears, 7),
    weight: spread(n, weightLbs, 37),
  };
}

/** Breed names earlier demos used, and the demo's name for them now. */
const FORMER_DEMO_BREEDS: Record<string, string> = { Husky: 'Siberian Husky' };

/**
 * A pet an earlier demo made, as the demo makes it now: null when its weight and age already
 * fit its breed (or the breed is none of the demo's), else its breed's name with a weight and
 * an age that fit (the n-th demo pet's, as `demoPet` spreads them).
 */
export function refittedDemoPet(
  dog: Pick<Dog, 'breed' | 'weight' | 'age'>,
  n: number,
): Pick<PetProfile, 'breed' | 'weight' | 'age'> | null {
  const name = dog.breed ? (FORMER_DEMO_BREEDS[dog.breed] ?? dog.breed) : null;
  const known = DEMO_BREEDS.find((b) => b.breed === name);
  if (!known) return null;
  const within = (v: number | null, [lo, hi]: readonly [number, number]) =>
    v !== null && v >= lo && v <= hi;
  if (name === dog.breed && within(dog.weight, known.weightLbs) && within(dog.age, known.ageYears))
    return null;
  return {
    breed: known.breed,
    age: spread(n, known.ageYears, 7),
    weight: spread(n, known.weightLbs, 37),
  };
}

/** The scenario's pet, as POST and PUT /api/dogs take it (weight in lbs). */
export type PetProfile = Required<Pick<DogInput, 'breed' | 'weight' | 'age'>> &
  Pick<DogInput, 'sex' | 'body_condition' | 'health_conditions'>;

/** POST or PUT /api/dogs with `body`. */
export async function savePet(
  base: string,
  token: string,
  method: 'POST' | 'PUT',
  path: string,
  body: Record<string, unknown>,
): Promise<Dog> {
  return (await callApi(base, method, path, dogResponseSchema, { token, body })).dog;
}

/** Every row of an owner's paged list (`/api/dogs`, `/api/devices`: 100 a page), in its order. */
async function allPages<S extends z.ZodType<{ total: number }>, T>(
  base: string,
  token: string,
  path: string,
  schema: S,
  rowsOf: (page: z.infer<S>) => T[],
): Promise<T[]> {
  const rows: T[] = [];
  for (;;) {
    const page = await callApi(base, 'GET', `${path}?limit=100&offset=${rows.length}`, schema, {
      token,
    });
    const pageRows = rowsOf(page);
    rows.push(...pageRows);
    if (pageRows.length === 0 || rows.length >= page.total) return rows;
  }
}

const ownerDevices = (base: string, token: string): Promise<Device[]> =>
  allPages(base, token, '/api/devices', devicesResponseSchema, (p) => p.devices);

/**
 * Gives the pets wearing `collars` a scenario's profile, or without one, refits the demo's
 * pets an earlier run made with a weight or age their breed never has (PUT replaces the pet:
 * its name and what the profile does not set are sent as they are).
 */
export async function updatePets(
  base: string,
  token: string,
  collars: SimCollar[],
  profile: PetProfile | undefined,
): Promise<void> {
  const worn = new Set(collars.map((c) => c.device_id));
  const dogIds = new Set(
    (await ownerDevices(base, token))
      .filter((d) => worn.has(d.device_id) && d.dog_id !== null)
      .map((d) => d.dog_id!),
  );
  const dogs = await allPages(base, token, '/api/dogs', dogsResponseSchema, (p) => p.dogs);
  for (const [n, dog] of dogs.filter((d) => dogIds.has(d.id)).entries()) {
    const changes = profile ?? refittedDemoPet(dog, n);
    if (!changes) continue;
    await savePet(base, token, 'PUT', `/api/dogs/${dog.id}`, {
      name: dog.name,
      medical_info: dog.medical_info,
      emergency_contact: dog.emergency_contact,
      ...(profile
        ? {}
        : {
            sex: dog.sex,
            body_condition: dog.body_condition,
            health_conditions: dog.health_conditions,
          }),
      ...changes,
    });
  }
}

/** A collar the simulator drives, on one of the demo owner's pets. */
export interface SimCollar {
  device_id: string;
  device_key: string;
  pet_name: string;
  /** Its MAC address (a state file from before it was kept: filled in from the server). */
  device_address: string;
}

/** A collar as the state file keeps it: a file written before the MAC was kept lacks it. */
export type StoredCollar = Omit<SimCollar, 'device_address'> & { device_address?: string };

/** What the simulator keeps between runs (its keys: the state file is written 0600). */
export interface SimState {
  version: 1;
  url: string;
  owner: Account & { name: string };
  collars: StoredCollar[];
}

/**
 * The collars of `state` the server still knows as the owner's, when the owner can sign in
 * (a fresh database, a different server: none).
 */
export async function stillAssigned(base: string, state: SimState): Promise<SimCollar[]> {
  let token;
  try {
    ({ token } = await signIn(base, state.owner));
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return [];
    throw err;
  }
  const devices = await ownerDevices(base, token);
  const onPets = new Map(
    devices.filter((d) => d.dog_id !== null).map((d) => [d.device_id, d.device_address]),
  );
  return state.collars
    .filter((c) => onPets.has(c.device_id))
    .map((c): SimCollar => ({
      ...c,
      // Every pre-populated collar has a MAC; a made-up one only if the server lost it.
      device_address: c.device_address ?? onPets.get(c.device_id) ?? randomMac(),
    }));
}

/**
 * Gives the owner `count` more collars, one on each new pet: the admin pre-populates them and
 * assigns them to the owner, who puts each on a pet (PUT /api/devices/{id} with its dog_id).
 * (An owner's own claim, POST /api/devices/assign/{deviceId}, is limited to a few a minute.)
 * With a `profile` (a scenario's dog), each pet has it instead of the demo's breed, age and weight.
 */
export async function addPetsWithCollars(
  base: string,
  adminToken: string,
  owner: { token: string; userId: string },
  count: number,
  firstPet: number,
  profile?: PetProfile,
): Promise<SimCollar[]> {
  const keyed = await prePopulateCollars(base, adminToken, count);
  await registerToUser(base, adminToken, owner.userId, keyed);
  const collars: SimCollar[] = [];
  for (const [i, c] of keyed.entries()) {
    const pet = { ...demoPet(firstPet + i), ...profile };
    const dog = await savePet(base, owner.token, 'POST', '/api/dogs', pet);
    await callApi(base, 'PUT', `/api/devices/${c.id}`, deviceResponseSchema, {
      token: owner.token,
      body: { device_name: `${pet.name}'s collar`, dog_id: dog.id },
    });
    collars.push({
      device_id: c.device_id,
      device_key: c.device_key,
      pet_name: pet.name,
      device_address: c.device_address,
    });
  }
  return collars;
}

export const newPassword = () => randomBytes(12).toString('base64url');
