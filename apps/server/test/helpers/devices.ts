import { randomInt } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { bearer, seedUser, type SeededUser, type TestApp } from './app.js';

export interface PrePopulated {
  id: string;
  device_id: string;
  device_key: string;
  qr_code: string;
  adopted: boolean;
  owner_name: string | null;
}

let counter = 0;
let idCounter = randomInt(36 ** 3);
const HEX = '0123456789ABCDEF';

/** A Device ID no other call in this test file has returned. */
export function freshDeviceId(): string {
  idCounter = (idCounter + 1) % 36 ** 4;
  return `PET-${idCounter.toString(36).toUpperCase().padStart(4, '0')}`;
}

/** A unique MAC, AA:BB:CC:DD:EE:FF form. */
export function freshMac(): string {
  counter++;
  const bytes = [
    0x02,
    randomInt(256),
    randomInt(256),
    (counter >> 16) & 0xff,
    (counter >> 8) & 0xff,
    counter & 0xff,
  ];
  return bytes.map((b) => HEX[b >> 4]! + HEX[b & 15]!).join(':');
}

export async function prePopulate(
  t: TestApp,
  admin: SeededUser,
  items: Array<{
    device_id?: string;
    device_address?: string;
    device_name?: string;
    device_type?: string;
  }> = [{}],
): Promise<PrePopulated[]> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/devices/pre-populate',
    headers: bearer(admin.token),
    payload: {
      devices: items.map((i) => ({
        device_id: i.device_id ?? freshDeviceId(),
        device_address: i.device_address ?? freshMac(),
        ...i,
      })),
    },
  });
  if (res.statusCode !== 201) throw new Error(`pre-populate failed: ${res.statusCode} ${res.body}`);
  return res.json().devices;
}

export async function createDog(
  t: TestApp,
  user: SeededUser,
  name = 'Biscuit',
): Promise<{ id: string; name: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/dogs',
    headers: bearer(user.token),
    payload: { name },
  });
  if (res.statusCode !== 201) throw new Error(`create pet failed: ${res.statusCode} ${res.body}`);
  return res.json().dog;
}

export async function assign(
  t: TestApp,
  user: SeededUser,
  deviceId: string,
  body: Record<string, unknown>,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: `/api/devices/assign/${deviceId}`,
    headers: bearer(user.token),
    payload: body,
  });
}

/**
 * `owner` releases the collar (their DELETE) and a new user claims it for a new pet named
 * `dogName`: answers the new owner, the pet and the device as the claim answered it.
 */
export async function passToNewOwner(
  t: TestApp,
  owner: SeededUser,
  collar: { id: string; device_id: string },
  dogName = 'Biscuit',
) {
  const released = await t.app.inject({
    method: 'DELETE',
    url: `/api/devices/${collar.id}`,
    headers: bearer(owner.token),
  });
  expect(released.statusCode, released.body).toBe(200);
  const next = await seedUser(t);
  const pet = await createDog(t, next, dogName);
  const claimed = await assign(t, next, collar.device_id, { dog_id: pet.id, device_name: dogName });
  expect(claimed.statusCode, claimed.body).toBe(200);
  return { next, pet, device: claimed.json().device as Record<string, unknown> };
}

/** Pre-populates a collar and has `owner` claim it for a new pet. */
export async function ownedCollar(
  t: TestApp,
  admin: SeededUser,
  owner: SeededUser,
  dogName = 'Biscuit',
) {
  const [d] = await prePopulate(t, admin);
  const pet = await createDog(t, owner, dogName);
  const res = await assign(t, owner, d!.device_id, {
    dog_id: pet.id,
    device_name: `${dogName}'s collar`,
  });
  expect(res.statusCode, res.body).toBe(200);
  return { ...d!, pet, device: res.json().device as Record<string, unknown> };
}

/** Every stored device row, to prove a refused request changed nothing. */
export async function deviceRows(t: TestApp) {
  return t.app.container.db.selectFrom('devices').selectAll().orderBy('id').execute();
}

export async function deviceRow(t: TestApp, id: string) {
  return t.app.container.db
    .selectFrom('devices')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function dogRows(t: TestApp) {
  return t.app.container.db.selectFrom('dogs').selectAll().orderBy('id').execute();
}

export const deviceAuth = (key: string) => ({ authorization: `Device ${key}` });
