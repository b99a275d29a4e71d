import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { freshDeviceId, freshMac, ownedCollar, prePopulate } from '../helpers/devices.js';

/**
 * AC-3 (object-level access) as a property: for random owners, objects and operations, user B's
 * request on user A's pet or device answers 404, and nothing stored changes. Lists never show
 * another user's rows.
 *
 * AC-4: ids are UUIDs, but access must not rest on that. The same property runs over a
 * second world whose pets and devices have sequential ids (…0001, …0002, …), and shows that
 * a guessed neighbouring id answers exactly as a random one does.
 */

interface Owner {
  user: SeededUser;
  pets: string[];
  devices: string[];
}

let t: TestApp;
let admin: SeededUser;
let owners: Owner[];
let sequential: Owner[];
/** Unassigned collars anyone could claim (used by the nested-pet operations). */
let freeCollars: string[];

async function everything() {
  const db = t.app.container.db;
  const [devices, dogs, outbox] = await Promise.all([
    db.selectFrom('devices').selectAll().orderBy('id').execute(),
    db.selectFrom('dogs').selectAll().orderBy('id').execute(),
    db.selectFrom('outbox').select('id').execute(),
  ]);
  return { devices, dogs, outbox: outbox.length };
}

/** A pet and a device for `user`, inserted with the ids given (sequential-looking UUIDs). */
async function insertWithIds(user: SeededUser, dogId: string, deviceUuid: string, n: number) {
  const now = new Date().toISOString();
  await t.app.container.repos.dogs.insert({
    id: dogId,
    user_id: user.id,
    name: `Seq ${n}`,
    breed: null,
    age: null,
    weight: null,
    medical_info: null,
    emergency_contact: null,
    created_at: now,
    updated_at: now,
  });
  await t.app.container.repos.devices.insert({
    id: deviceUuid,
    device_id: freshDeviceId(),
    device_address: freshMac(),
    device_name: `Seq collar ${n}`,
    device_type: 'collar',
    status: 'inactive',
    registration_status: 'assigned',
    user_id: user.id,
    dog_id: dogId,
    firmware_version: null,
    battery_level: null,
    last_seen: null,
    created_at: now,
    updated_at: now,
    device_key_hash: null,
    temperature_celsius: null,
    humidity_percent: null,
    heart_rate: null,
    activity_level: null,
    vitals_status: null,
    vitals_recorded_at: null,
  });
}

/** 00000000-0000-4000-8000-00000000000n: valid v4 UUIDs that count up like database ids. */
const seqUuid = (prefix: number, n: number) =>
  `${prefix.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

beforeAll(async () => {
  t = await createTestApp();
  admin = await seedUser(t, { role: 'admin' });
  owners = [];
  for (let i = 0; i < 3; i++) {
    const user = await seedUser(t);
    const a = await ownedCollar(t, admin, user, `Pet ${i}a`);
    const b = await ownedCollar(t, admin, user, `Pet ${i}b`);
    // An unregistered device from the fallback, too.
    const fallback = await t.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: bearer(user.token),
      payload: { device_id: freshDeviceId(), dog_id: a.pet.id, device_name: 'Fallback' },
    });
    owners.push({
      user,
      pets: [a.pet.id, b.pet.id],
      devices: [a.id, b.id, fallback.json().device.id],
    });
  }
  sequential = [];
  let n = 1;
  for (let i = 0; i < 3; i++) {
    const user = await seedUser(t);
    const o: Owner = { user, pets: [], devices: [] };
    for (let j = 0; j < 2; j++, n++) {
      await insertWithIds(user, seqUuid(1, n), seqUuid(2, n), n);
      o.pets.push(seqUuid(1, n));
      o.devices.push(seqUuid(2, n));
    }
    sequential.push(o);
  }
  freeCollars = (
    await prePopulate(
      t,
      admin,
      Array.from({ length: 3 }, () => ({})),
    )
  ).map((d) => d.device_id);
});
afterAll(() => t.close());

type Target = { dogId: string; deviceId: string };
type Op = { name: string; build: (b: Owner, target: Target, text: string) => InjectOptions };

const OPS: Op[] = [
  { name: 'read device', build: (_b, x) => ({ url: `/api/devices/${x.deviceId}` }) },
  { name: 'device QR code', build: (_b, x) => ({ url: `/api/devices/${x.deviceId}/qr-code` }) },
  {
    name: 'update device',
    build: (b, x, text) => ({
      method: 'PUT',
      url: `/api/devices/${x.deviceId}`,
      payload: { device_name: text, dog_id: b.pets[0] },
    }),
  },
  {
    name: 'update device (name only)',
    build: (_b, x, text) => ({
      method: 'PUT',
      url: `/api/devices/${x.deviceId}`,
      payload: { device_name: text },
    }),
  },
  {
    name: 'delete device',
    build: (_b, x) => ({ method: 'DELETE', url: `/api/devices/${x.deviceId}` }),
  },
  {
    name: 'update pet',
    build: (_b, x, text) => ({
      method: 'PUT',
      url: `/api/dogs/${x.dogId}`,
      payload: { name: text },
    }),
  },
  { name: 'delete pet', build: (_b, x) => ({ method: 'DELETE', url: `/api/dogs/${x.dogId}` }) },
  // Nested ids: B's own device, or B's own request, naming A's pet.
  {
    name: "move B's device onto A's pet",
    build: (b, x, text) => ({
      method: 'PUT',
      url: `/api/devices/${b.devices[0]}`,
      payload: { device_name: text, dog_id: x.dogId },
    }),
  },
  {
    name: "claim a free collar for A's pet",
    build: (_b, x, text) => ({
      method: 'POST',
      url: `/api/devices/assign/${freeCollars[0]}`,
      payload: { dog_id: x.dogId, device_name: text },
    }),
  },
  {
    name: "fallback device on A's pet",
    build: (_b, x, text) => ({
      method: 'POST',
      url: '/api/devices',
      payload: { device_id: freshDeviceId(), dog_id: x.dogId, device_name: text },
    }),
  },
  {
    name: "auto-assign for A's pet",
    build: (_b, x, text) => ({
      method: 'POST',
      url: '/api/device-registration/auto-assign',
      payload: { dog_id: x.dogId, device_name: text },
    }),
  },
];

const deviceName = fc.string({ minLength: 1, maxLength: 50 }).filter((s) => s.trim().length > 0);

/** B's request on one of A's objects: 404, the same answer as for an id that does not exist, nothing changed. */
async function attack(
  world: Owner[],
  bi: number,
  ai: number,
  oi: number,
  pi: number,
  di: number,
  text: string,
) {
  const b = world[bi]!;
  const a = world[ai]!;
  const target = {
    dogId: a.pets[pi % a.pets.length]!,
    deviceId: a.devices[di % a.devices.length]!,
  };
  const op = OPS[oi]!;
  const before = await everything();
  const res = await t.app.inject({ ...op.build(b, target, text), headers: bearer(b.user.token) });
  expect(res.statusCode, `${op.name}: ${res.body}`).toBe(404);
  expect(Object.keys(res.json())).toEqual(['error']);
  expect(await everything(), op.name).toEqual(before);
  // No oracle: A's real id and an id nobody has answer alike.
  const ghost = await t.app.inject({
    ...op.build(b, { dogId: randomUUID(), deviceId: randomUUID() }, text),
    headers: bearer(b.user.token),
  });
  expect({ status: ghost.statusCode, body: ghost.json() }, op.name).toEqual({
    status: 404,
    body: res.json(),
  });
}

const worldArbs = (size: number) => ({
  bi: fc.nat({ max: size - 1 }),
  shift: fc.integer({ min: 1, max: size - 1 }),
  oi: fc.nat({ max: OPS.length - 1 }),
  pi: fc.nat({ max: 5 }),
  di: fc.nat({ max: 5 }),
  text: deviceName,
});

/** The AC-3 property over one world: a random B attacks a random A with a random operation. */
async function attackProperty(world: Parameters<typeof attack>[0], numRuns: number) {
  const arbs = worldArbs(world.length);
  await fc.assert(
    fc.asyncProperty(
      arbs.bi,
      arbs.shift,
      arbs.oi,
      arbs.pi,
      arbs.di,
      arbs.text,
      async (bi, shift, oi, pi, di, text) => {
        await attack(world, bi, (bi + shift) % world.length, oi, pi, di, text);
      },
    ),
    { numRuns },
  );
}

describe('AC-3: a user reaches only their own pets and devices', () => {
  it("answers 404 to B's every request on A's objects, and changes nothing (property)", async () => {
    await attackProperty(owners, 60);
  });

  it("never lists another user's pets or devices", async () => {
    for (const o of owners) {
      const devices = (
        await t.app.inject({ url: '/api/devices', headers: bearer(o.user.token) })
      ).json().devices;
      const dogs = (await t.app.inject({ url: '/api/dogs', headers: bearer(o.user.token) })).json()
        .dogs;
      expect(devices.map((d: { id: string }) => d.id).sort()).toEqual([...o.devices].sort());
      expect(devices.every((d: { user_id: string }) => d.user_id === o.user.id)).toBe(true);
      expect(dogs.every((d: { user_id: string }) => d.user_id === o.user.id)).toBe(true);
    }
  });

  it("the owner's own requests still work (the property is not vacuous)", async () => {
    const o = owners[0]!;
    expect(
      (await t.app.inject({ url: `/api/devices/${o.devices[0]}`, headers: bearer(o.user.token) }))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await t.app.inject({
          url: `/api/devices/${o.devices[0]}/qr-code`,
          headers: bearer(o.user.token),
        })
      ).statusCode,
    ).toBe(200);
  });
});

describe('AC-4: access does not rest on unpredictable ids', () => {
  it('holds with sequential ids: B guessing the next id of A gets 404 and changes nothing (property)', async () => {
    await attackProperty(sequential, 40);
  });

  it('a neighbouring UUID of a real device answers exactly like a random one', async () => {
    const stranger = await seedUser(t);
    const real = sequential[0]!.devices[0]!;
    const neighbour = seqUuid(2, 999);
    const answers = await Promise.all(
      [real, neighbour, randomUUID()].map((id) =>
        t.app.inject({ url: `/api/devices/${id}`, headers: bearer(stranger.token) }),
      ),
    );
    for (const r of answers)
      expect({ status: r.statusCode, body: r.json() }).toEqual({
        status: 404,
        body: { error: 'Device not found' },
      });
    // …while its owner reads it.
    expect(
      (
        await t.app.inject({
          url: `/api/devices/${real}`,
          headers: bearer(sequential[0]!.user.token),
        })
      ).statusCode,
    ).toBe(200);
  });
});
