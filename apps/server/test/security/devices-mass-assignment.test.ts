import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { expectError } from '../helpers/api.js';
import {
  createDog,
  deviceAuth,
  freshDeviceId,
  freshMac,
  ownedCollar,
  prePopulate,
} from '../helpers/devices.js';

/**
 * AC-5: write routes never take server-owned fields. Request schemas are strict, so each such
 * field in an otherwise valid body answers 400 and nothing stored changes. `status` is
 * server-owned for customers (an admin may set it on PUT).
 */

let t: TestApp;
let admin: SeededUser;
let owner: SeededUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await seedUser(t, { role: 'admin' });
  owner = await seedUser(t);
});
afterAll(() => t.close());

const FORBIDDEN: Record<string, unknown> = {
  id: randomUUID(),
  user_id: randomUUID(),
  owner_id: randomUUID(),
  registration_status: 'active',
  device_key_hash: 'a'.repeat(64),
  device_key: 'chosen-by-the-caller-0123456789abcdef',
  created_at: '2000-01-01T00:00:00.000Z',
  updated_at: '2000-01-01T00:00:00.000Z',
  last_seen: '2000-01-01T00:00:00.000Z',
  battery_level: 100,
  temperature_celsius: 20,
  vitals_status: 'SAFE',
  role: 'admin',
};

async function everything() {
  const db = t.app.container.db;
  const [devices, dogs] = await Promise.all([
    db.selectFrom('devices').selectAll().orderBy('id').execute(),
    db.selectFrom('dogs').selectAll().orderBy('id').execute(),
  ]);
  return { devices, dogs };
}

/** Each write route with a valid request (as its legitimate caller) and where its body's fields go. */
async function writeRoutes(): Promise<
  Array<{
    name: string;
    request: (extra: Record<string, unknown>) => InjectOptions;
    forbidden: string[];
  }>
> {
  const c = await ownedCollar(t, admin, owner);
  const pet = await createDog(t, owner);
  const petForAuto = await createDog(t, owner);
  const [free] = await prePopulate(t, admin);
  const userFields = [...Object.keys(FORBIDDEN), 'status'];
  return [
    {
      name: 'PUT /api/devices/{id} (owner)',
      request: (extra) => ({
        method: 'PUT',
        url: `/api/devices/${c.id}`,
        headers: bearer(owner.token),
        payload: { device_name: 'x', ...extra },
      }),
      forbidden: [...userFields, 'device_id', 'device_address', 'firmware_version'],
    },
    {
      name: 'PUT /api/devices/{id} (admin)',
      request: (extra) => ({
        method: 'PUT',
        url: `/api/devices/${c.id}`,
        headers: bearer(admin.token),
        // An admin sets the status of a customer's device, and nothing else.
        payload: { status: 'active', ...extra },
      }),
      forbidden: [...Object.keys(FORBIDDEN), 'device_id'],
    },
    {
      name: 'POST /api/devices/assign/{deviceId}',
      request: (extra) => ({
        method: 'POST',
        url: `/api/devices/assign/${free!.device_id}`,
        headers: bearer(owner.token),
        payload: { dog_id: pet.id, device_name: 'x', ...extra },
      }),
      forbidden: userFields,
    },
    {
      name: 'POST /api/devices',
      request: (extra) => ({
        method: 'POST',
        url: '/api/devices',
        headers: bearer(owner.token),
        payload: { device_id: freshDeviceId(), dog_id: pet.id, device_name: 'x', ...extra },
      }),
      forbidden: userFields,
    },
    {
      name: 'POST /api/device-registration/auto-assign',
      request: (extra) => ({
        method: 'POST',
        url: '/api/device-registration/auto-assign',
        headers: bearer(owner.token),
        payload: { dog_id: petForAuto.id, device_name: 'x', ...extra },
      }),
      forbidden: [...userFields, 'device_id'],
    },
    {
      name: 'POST /api/admin/devices/pre-populate (item)',
      request: (extra) => ({
        method: 'POST',
        url: '/api/admin/devices/pre-populate',
        headers: bearer(admin.token),
        payload: {
          devices: [{ device_id: freshDeviceId(), device_address: freshMac(), ...extra }],
        },
      }),
      forbidden: [...Object.keys(FORBIDDEN), 'status', 'dog_id'],
    },
    {
      name: 'POST /api/devices/register',
      request: (extra) => ({
        method: 'POST',
        url: '/api/devices/register',
        headers: bearer(admin.token),
        payload: { device_id: free!.device_id, user_id: owner.id, ...extra },
      }),
      forbidden: [...Object.keys(FORBIDDEN).filter((k) => k !== 'user_id'), 'status', 'dog_id'],
    },
    {
      name: 'POST /api/devices/self-register (collar)',
      request: (extra) => ({
        method: 'POST',
        url: '/api/devices/self-register',
        headers: deviceAuth(c.device_key),
        payload: { firmware_version: '1.0.0', device_address: freshMac(), ...extra },
      }),
      forbidden: [...Object.keys(FORBIDDEN), 'status', 'device_id', 'dog_id', 'device_name'],
    },
  ];
}

describe('AC-5: server-owned fields in a write body', () => {
  it('answer 400 on every write route, and nothing changes', async () => {
    const routes = await writeRoutes();
    let checked = 0;
    for (const route of routes) {
      for (const field of route.forbidden) {
        const value =
          field in FORBIDDEN
            ? FORBIDDEN[field]
            : field === 'status'
              ? 'active'
              : field === 'dog_id'
                ? randomUUID()
                : 'PET-ZZZZ';
        const before = await everything();
        const res = await t.app.inject(route.request({ [field]: value }));
        // A field the route knows but the caller may not set is forbidden (403), not malformed.
        const expected =
          route.name === 'PUT /api/devices/{id} (owner)' && field === 'status' ? 403 : 400;
        expect({ route: route.name, field, status: res.statusCode }).toEqual({
          route: route.name,
          field,
          status: expected,
        });
        expectError(res, expected);
        expect(await everything(), `${route.name} with ${field}`).toEqual(before);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(80);
  });

  it('the same bodies without the field succeed (the refusals are about the field)', async () => {
    for (const route of await writeRoutes()) {
      const res = await t.app.inject(route.request({}));
      expect(res.statusCode, `${route.name}: ${res.body}`).toBeLessThan(300);
    }
  });

  it("a customer's status change is refused; an admin's is applied", async () => {
    const c = await ownedCollar(t, admin, owner);
    const put = (token: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/devices/${c.id}`,
        headers: bearer(token),
        payload: { device_name: 'x', dog_id: c.pet.id, status: 'active' },
      });
    expectError(await put(owner.token), 403, 'Only an admin can change a device status');
    const byAdmin = await t.app.inject({
      method: 'PUT',
      url: `/api/devices/${c.id}`,
      headers: bearer(admin.token),
      payload: { status: 'active' },
    });
    expect(byAdmin.json().device.status).toBe('active');
  });

  it('the Device ID never changes, whoever asks', async () => {
    const c = await ownedCollar(t, admin, owner);
    for (const token of [owner.token, admin.token]) {
      expectError(
        await t.app.inject({
          method: 'PUT',
          url: `/api/devices/${c.id}`,
          headers: bearer(token),
          payload: { device_name: 'x', device_id: 'PET-ZZZZ' },
        }),
        400,
        /Unknown field.*device_id/,
      );
    }
    expect(
      (await t.app.inject({ url: `/api/devices/${c.id}`, headers: bearer(owner.token) })).json()
        .device.device_id,
    ).toBe(c.device_id);
  });
});
