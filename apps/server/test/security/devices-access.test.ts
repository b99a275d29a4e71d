import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { freshDeviceId, freshMac, ownedCollar, prePopulate } from '../helpers/devices.js';
import { joinPack, packInvitation } from '../helpers/pack.js';
import matrix from './authorization-matrix.json' with { type: 'json' };

const packMatrix = matrix.pack;

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

/**
 * PACK-1: shared access follows the pack everywhere. One owner's pet is shared with a co-owner,
 * a caregiver, a caregiver whose `until` has passed and a member since removed; the owner's
 * second pet with nobody. For a random role, route and pet, the answer is the pack table's in
 * authorization-matrix.json (a pet not shared with them: 404), and a refusal changes nothing.
 */
describe('PACK-1: what each pack role reaches', () => {
  type Role = 'co_owner' | 'caregiver' | 'expired_caregiver' | 'removed_member';
  const table = packMatrix.routes as Record<string, Record<Role, number>>;
  const ROLES = packMatrix.roles as Role[];
  let owner: SeededUser;
  let members: Record<Role, SeededUser>;
  let shared: { dog: string; device: string; alert: string; printed: string };
  let alone: { dog: string; device: string; alert: string; printed: string };
  let third: SeededUser;

  async function hot(c: Awaited<ReturnType<typeof ownedCollar>>) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/devices/${c.device_id}/vitals`,
      headers: { authorization: `Device ${c.device_key}` },
      payload: { temperature: 45, humidity: 40 },
    });
    expect(res.statusCode, res.body).toBe(201);
    const alert = await t.app.container.db
      .selectFrom('alerts')
      .select('id')
      .where('device_uuid', '=', c.id)
      .executeTakeFirstOrThrow();
    return { dog: c.pet.id, device: c.id, alert: alert.id, printed: c.device_id };
  }

  beforeAll(async () => {
    owner = await seedUser(t);
    shared = await hot(await ownedCollar(t, admin, owner, 'Shared'));
    alone = await hot(await ownedCollar(t, admin, owner, 'Alone'));
    members = {
      co_owner: await seedUser(t),
      caregiver: await seedUser(t),
      expired_caregiver: await seedUser(t),
      removed_member: await seedUser(t),
    };
    third = await seedUser(t);
    const past = new Date(t.clock.now().getTime() - 60_000).toISOString();
    await joinPack(t, { dogId: shared.dog, userId: members.co_owner.id, role: 'co_owner' });
    await joinPack(t, { dogId: shared.dog, userId: members.caregiver.id, role: 'caregiver' });
    await joinPack(t, {
      dogId: shared.dog,
      userId: members.expired_caregiver.id,
      role: 'caregiver',
      until: past,
    });
    await joinPack(t, { dogId: shared.dog, userId: members.removed_member.id, role: 'co_owner' });
    await t.app.container.repos.pack.removeMember(shared.dog, members.removed_member.id);
    await joinPack(t, { dogId: shared.dog, userId: third.id, role: 'caregiver' });
  });

  /** A request on route `key` naming pet/collar `x`, as `m` would make it. */
  async function request(key: string, x: typeof shared, m: SeededUser): Promise<InjectOptions> {
    const dev = `/api/devices/${x.device}`;
    const dog = `/api/dogs/${x.dog}`;
    // An open, unacknowledged alert each time (a resolve before must not change the answer).
    await t.app.container.db
      .updateTable('alerts')
      .set({ resolved_at: null, resolved_by: null, acknowledged_at: null, acknowledged_by: null })
      .where('id', '=', x.alert)
      .execute();
    const invitation = async () => {
      await packInvitation(t, { dogId: x.dog, invitedBy: owner.id, email: 'pack@example.com' });
      const [row] = await t.app.container.repos.pack.openInvitations(
        x.dog,
        t.clock.now().toISOString(),
      );
      return row!.id;
    };
    const free = async () => (await prePopulate(t, admin, [{}]))[0]!.device_id;
    const builders: Record<string, () => Promise<InjectOptions> | InjectOptions> = {
      'GET /api/devices/:id': () => ({ url: dev }),
      'GET /api/devices/:id/qr-code': () => ({ url: `${dev}/qr-code` }),
      'PUT /api/devices/:id': () => ({ method: 'PUT', url: dev, payload: { device_name: 'Pack' } }),
      'PUT /api/devices/:id (move off the pet)': () => ({
        method: 'PUT',
        url: dev,
        payload: { device_name: 'Pack', dog_id: null },
      }),
      'DELETE /api/devices/:id': () => ({ method: 'DELETE', url: dev }),
      'GET /api/devices/:id/vitals': () => ({ url: `${dev}/vitals` }),
      'POST /api/devices/:deviceId/vitals': () => ({
        method: 'POST',
        url: `/api/devices/${x.printed}/vitals`,
        payload: { temperature: 45, humidity: 40 },
      }),
      'GET /api/devices/by-device-id/:deviceId': () => ({
        url: `/api/devices/by-device-id/${x.printed}`,
      }),
      'GET /api/devices/:id/vitals/latest': () => ({ url: `${dev}/vitals/latest` }),
      'GET /api/devices/:id/readings': () => ({ url: `${dev}/readings?latest=1` }),
      'GET /api/devices/:id/history': () => ({ url: `${dev}/history?range=1h` }),
      'GET /api/devices/:id/risk/backtest': () => ({ url: `${dev}/risk/backtest?days=7` }),
      'GET /api/devices/:id/alerts': () => ({ url: `${dev}/alerts` }),
      'POST /api/devices/:id/alerts/:alertId/acknowledge': () => ({
        method: 'POST',
        url: `${dev}/alerts/${x.alert}/acknowledge`,
      }),
      'POST /api/devices/:id/alerts/:alertId/resolve': () => ({
        method: 'POST',
        url: `${dev}/alerts/${x.alert}/resolve`,
      }),
      'PUT /api/dogs/:id': () => ({ method: 'PUT', url: dog, payload: { name: 'Pack pet' } }),
      'DELETE /api/dogs/:id': () => ({ method: 'DELETE', url: dog }),
      'GET /api/dogs/:id/activity': () => ({ url: `${dog}/activity?days=7` }),
      'PUT /api/dogs/:id/goal': () => ({
        method: 'PUT',
        url: `${dog}/goal`,
        payload: { active_minutes: 40 },
      }),
      'GET /api/dogs/:id/insights': () => ({ url: `${dog}/insights` }),
      'GET /api/dogs/:id/escalation': () => ({ url: `${dog}/escalation` }),
      'PUT /api/dogs/:id/escalation': () => ({
        method: 'PUT',
        url: `${dog}/escalation`,
        payload: { danger_minutes: 10, critical_minutes: 3 },
      }),
      'GET /api/dogs/:id/pack': () => ({ url: `${dog}/pack` }),
      'POST /api/dogs/:id/pack/invitations': () => ({
        method: 'POST',
        url: `${dog}/pack/invitations`,
        payload: { email: `${randomUUID()}@example.com`, role: 'caregiver' },
      }),
      'DELETE /api/dogs/:id/pack/invitations/:invitationId': async () => ({
        method: 'DELETE',
        url: `${dog}/pack/invitations/${await invitation()}`,
      }),
      'DELETE /api/dogs/:id/pack/members/:userId': () => ({
        method: 'DELETE',
        url: `${dog}/pack/members/${third.id}`,
      }),
      'POST /api/devices (a collar on the pet)': () => ({
        method: 'POST',
        url: '/api/devices',
        payload: { device_id: freshDeviceId(), dog_id: x.dog, device_name: 'Pack' },
      }),
      'POST /api/devices/assign/:deviceId (onto the pet)': async () => ({
        method: 'POST',
        url: `/api/devices/assign/${await free()}`,
        payload: { dog_id: x.dog, device_name: 'Pack' },
      }),
      'POST /api/device-registration/auto-assign (for the pet)': () => ({
        method: 'POST',
        url: '/api/device-registration/auto-assign',
        payload: { dog_id: x.dog, device_name: 'Pack' },
      }),
    };
    const build = builders[key];
    if (!build) throw new Error(`no request for ${key}`);
    return { ...(await build()), headers: bearer(m.token) };
  }

  async function packState() {
    const db = t.app.container.db;
    const [base, members, invitations, alerts] = await Promise.all([
      everything(),
      db.selectFrom('pack_members').selectAll().orderBy('dog_id').orderBy('user_id').execute(),
      db.selectFrom('pack_invitations').select(['id', 'revoked_at']).orderBy('id').execute(),
      db.selectFrom('alerts').selectAll().orderBy('id').execute(),
    ]);
    return { ...base, members, invitations, alerts };
  }

  it('lists every route naming a pet or a collar by id or Device ID', () => {
    const listed = new Set(Object.keys(table).map((k) => k.replace(/ \(.*\)$/, '')));
    const naming = t.app.routePolicies
      .filter((r) => r.method !== 'HEAD' && (r.auth === 'user' || r.auth === 'device_or_user'))
      .map((r) => `${r.method} ${r.url}`)
      .filter((k) => /\/api\/(dogs|devices)\/(.+\/)?:(id|deviceId)(\/|$)/.test(k));
    expect(naming.filter((k) => !listed.has(k))).toEqual([]);
  });

  it('answers each role as the pack table says on the shared pet, 404 on the other, and a refusal changes nothing (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROLES),
        fc.constantFrom(...Object.keys(table)),
        fc.boolean(),
        async (role, key, onShared) => {
          const x = onShared ? shared : alone;
          // by-device-id tells anyone only whether a Device ID is taken.
          const expected =
            onShared || key === 'GET /api/devices/by-device-id/:deviceId' ? table[key]![role] : 404;
          const req = await request(key, x, members[role]);
          const before = await packState();
          const res = await t.app.inject(req);
          expect(
            res.statusCode,
            `${role} ${key} on ${onShared ? 'shared' : 'other'} pet: ${res.body}`,
          ).toBe(expected);
          if (expected >= 400) {
            expect(Object.keys(res.json())).toEqual(['error']);
            expect(await packState(), `${role} ${key}`).toEqual(before);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('lists a shared pet and its collar only to its active members', async () => {
    for (const role of ROLES) {
      const m = members[role];
      const dogs = (await t.app.inject({ url: '/api/dogs', headers: bearer(m.token) })).json().dogs;
      const devices = (await t.app.inject({ url: '/api/devices', headers: bearer(m.token) })).json()
        .devices;
      const alerts = (await t.app.inject({ url: '/api/alerts', headers: bearer(m.token) })).json()
        .alerts;
      const active = role === 'co_owner' || role === 'caregiver';
      expect(
        dogs.map((d: { id: string }) => d.id),
        role,
      ).toEqual(active ? [shared.dog] : []);
      expect(
        devices.map((d: { id: string }) => d.id),
        role,
      ).toEqual(active ? [shared.device] : []);
      expect(
        alerts.map((a: { device: string }) => a.device),
        role,
      ).toEqual(active ? [shared.device] : []);
    }
  });
});
