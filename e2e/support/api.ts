import { expect, type APIRequestContext } from '@playwright/test';
import { adminCredentials } from './env';

export type Role = 'admin' | 'user';

/** A person known to the server, with a token for calling the API as them. */
export type Account = {
  id: string;
  name: string;
  email: string;
  password: string;
  role: Role;
  token: string;
};

export const TEST_PASSWORD = 'correct-horse-battery';

/** Unique per call, so tests running in parallel never share an account. */
export function uniqueEmail(prefix = 'owner'): string {
  const nonce = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  return `${prefix}-${nonce}@example.test`;
}

export function uniqueName(first: string): string {
  return `${first} ${Math.random().toString(36).slice(2, 7)}`;
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

type AuthAnswer = { token: string; user: { id: string; name: string; email: string; role: Role } };

/**
 * Creates an account through POST /api/auth/register (the same call the sign-up form makes).
 * Its display units are °C first and lbs unless given: the specs read temperatures that way.
 */
export async function registerUser(
  request: APIRequestContext,
  {
    name = uniqueName('Alex'),
    email = uniqueEmail(),
    password = TEST_PASSWORD,
    temperature_unit = 'C' as 'F' | 'C',
    weight_unit = 'lbs' as 'lbs' | 'kg',
    time_zone = undefined as string | undefined,
  } = {},
): Promise<Account> {
  const response = await request.post('/api/auth/register', {
    data: { name, email, password, temperature_unit, weight_unit, time_zone },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { token, user } = (await response.json()) as AuthAnswer;
  return { ...user, password, token };
}

export async function loginAsAdmin(request: APIRequestContext): Promise<Account> {
  const response = await request.post('/api/auth/login', { data: adminCredentials });
  expect(response.status(), await response.text()).toBe(200);
  const { token, user } = (await response.json()) as AuthAnswer;
  return { ...user, password: adminCredentials.password, token };
}

/** Adds a pet for the owner; answers its id. */
export async function addPet(
  request: APIRequestContext,
  owner: Account,
  name: string,
): Promise<string> {
  const response = await request.post('/api/dogs', {
    headers: bearer(owner.token),
    data: { name, breed: 'Beagle', age: 4, weight: 22.5 },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { dog: { id: string } }).dog.id;
}

export const randomMac = () =>
  Array.from({ length: 6 }, () =>
    Math.floor(Math.random() * 256)
      .toString(16)
      .padStart(2, '0'),
  ).join(':');

/** A collar as its firmware knows it: the printed Device ID and the key it posts with. */
export type Collar = { id: string; deviceId: string; key: string; name: string };

/**
 * A collar on the owner's pet, the way it happens for real: the admin pre-populates it (the
 * only answer that shows its key) and the owner claims it by its Device ID.
 */
export async function addCollar(
  request: APIRequestContext,
  owner: Account,
  petId: string,
  name = uniqueName('Collar'),
): Promise<Collar> {
  const admin = await loginAsAdmin(request);
  // Another journey's auto-assign may take a free collar between our two calls: try again.
  for (let attempt = 1; ; attempt++) {
    const generated = await request.get('/api/devices/generate-id', {
      headers: bearer(admin.token),
    });
    expect(generated.status(), await generated.text()).toBe(200);
    const { device_id } = (await generated.json()) as { device_id: string };
    const created = await request.post('/api/admin/devices/pre-populate', {
      headers: bearer(admin.token),
      data: { devices: [{ device_id, device_address: randomMac() }] },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { devices } = (await created.json()) as {
      devices: { id: string; device_key: string }[];
    };
    const claimed = await request.post(`/api/devices/assign/${device_id}`, {
      headers: bearer(owner.token),
      data: { dog_id: petId, device_name: name },
    });
    if (claimed.status() === 409 && attempt < 3) continue;
    expect(claimed.status(), await claimed.text()).toBe(200);
    return { id: devices[0]!.id, deviceId: device_id, key: devices[0]!.device_key, name };
  }
}

/** What a collar measured; `secondsAgo` back-dates it. */
export type TestReading = {
  temperature: number;
  humidity: number;
  heart_rate?: number;
  activity_level?: number;
  battery?: number;
  secondsAgo?: number;
};

/** The collar posts readings with its own key (POST /api/devices/{Device ID}/vitals). */
export async function postReadings(
  request: APIRequestContext,
  collar: Collar,
  readings: TestReading[],
): Promise<void> {
  const now = Date.now();
  const response = await request.post(`/api/devices/${collar.deviceId}/vitals`, {
    headers: { Authorization: `Device ${collar.key}` },
    data: readings.map(({ secondsAgo = 0, ...values }) => ({
      ...values,
      timestamp: new Date(now - secondsAgo * 1000).toISOString(),
    })),
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** The status GET /api/auth/profile answers for this token. */
export async function profileStatus(request: APIRequestContext, token: string): Promise<number> {
  const response = await request.get('/api/auth/profile', { headers: bearer(token) });
  return response.status();
}

/** An admin's pre-populate through the API, for journeys that only need a collar to exist. */
export async function prePopulateCollar(request: APIRequestContext): Promise<string> {
  const admin = await loginAsAdmin(request);
  const generated = await request.get('/api/devices/generate-id', { headers: bearer(admin.token) });
  expect(generated.status(), await generated.text()).toBe(200);
  const { device_id } = (await generated.json()) as { device_id: string };
  const response = await request.post('/api/admin/devices/pre-populate', {
    headers: bearer(admin.token),
    data: { devices: [{ device_id, device_address: randomMac() }] },
  });
  expect(response.status(), await response.text()).toBe(201);
  return device_id;
}
