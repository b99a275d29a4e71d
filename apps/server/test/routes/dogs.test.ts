import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { expectError, seedDog } from '../helpers/api.js';

let t: TestApp;
let owner: SeededUser;
let other: SeededUser;
let admin: SeededUser;
beforeAll(async () => {
  t = await createTestApp();
  [owner, other, admin] = await Promise.all([
    seedUser(t, { name: 'Olive Owner' }),
    seedUser(t),
    seedUser(t, { role: 'admin' }),
  ]);
});
afterAll(() => t.close());

const create = (token: string, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/dogs',
    headers: bearer(token),
    payload: payload as object,
  });
const update = (token: string, id: string, payload: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/dogs/${id}`,
    headers: bearer(token),
    payload: payload as object,
  });
const remove = (token: string, id: string) =>
  t.app.inject({ method: 'DELETE', url: `/api/dogs/${id}`, headers: bearer(token) });
const stored = (id: string) =>
  t.app.container.db.selectFrom('dogs').selectAll().where('id', '=', id).executeTakeFirst();

const full = {
  name: 'Rex',
  breed: 'Labrador Retriever',
  age: 5,
  weight: 61.5,
  medical_info: 'Hip dysplasia',
  emergency_contact: 'Dr. Vet 555-0100',
  sex: 'male',
  body_condition: 6,
  health_conditions: ['airway', 'heart'],
};

describe('POST /api/dogs', () => {
  it('rejects a request without a token', async () => {
    expectError(
      await t.app.inject({ method: 'POST', url: '/api/dogs', payload: full }),
      401,
      'Authentication required',
    );
  });

  it('creates a pet for the caller and answers 201 { dog }', async () => {
    const res = await create(owner.token, full);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      dog: {
        id: expect.any(String),
        user_id: owner.id,
        ...full,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        // The caller's own pet (a pet shared with them names its owner: pack.test.ts).
        access: 'owner',
        owner_name: null,
      },
    });
    expect(await stored(res.json().dog.id)).toMatchObject({
      user_id: owner.id,
      ...full,
      health_conditions: '["airway","heart"]',
    });
  });

  it('keeps the known conditions in one order however they are sent', async () => {
    const res = await create(owner.token, {
      name: 'Order',
      health_conditions: ['heart', 'airway'],
    });
    expect(res.json().dog.health_conditions).toEqual(['airway', 'heart']);
  });

  it.each([
    ['omitted', { name: 'Only Name' }],
    [
      'null',
      {
        name: 'Nulls',
        breed: null,
        age: null,
        weight: null,
        medical_info: null,
        emergency_contact: null,
        sex: null,
        body_condition: null,
        health_conditions: null,
      },
    ],
    [
      "''",
      {
        name: 'Blanks',
        breed: '',
        medical_info: '',
        emergency_contact: '   ',
        sex: '',
        age: '',
        weight: ' ',
        body_condition: '',
      },
    ],
  ])('accepts optional fields %s and stores them as null', async (_how, payload) => {
    const res = await create(owner.token, payload);
    expect(res.statusCode).toBe(201);
    const dog = res.json().dog;
    expect(dog).toMatchObject({
      breed: null,
      age: null,
      weight: null,
      medical_info: null,
      emergency_contact: null,
      sex: null,
      body_condition: null,
      health_conditions: [],
    });
    expect(await stored(dog.id)).toMatchObject({
      breed: null,
      age: null,
      weight: null,
      medical_info: null,
      emergency_contact: null,
    });
  });

  it.each([
    [0, 201],
    [40, 201],
    [-1, 400],
    [41, 400],
    [2.5, 400],
  ])('takes age %s → %s (whole years, 0–40)', async (age, status) => {
    const res = await create(owner.token, { name: 'Aged', age });
    expect(res.statusCode).toBe(status);
    if (status === 400) expectError(res, 400, /^age must be/);
  });

  it.each([
    [0.1, 201],
    [400, 201],
    [0.09, 400],
    [400.1, 400],
    [0, 400],
  ])('takes weight %s → %s (0.1–400 lbs)', async (weight, status) => {
    const res = await create(owner.token, { name: 'Heavy', weight });
    expect(res.statusCode).toBe(status);
    if (status === 400) expectError(res, 400, 'weight must be between 0.1 and 400 lbs');
  });

  it.each([
    ['a missing name', { breed: 'Beagle' }, 'Pet name is required'],
    ['a blank name', { name: '  ' }, 'Pet name is required'],
    ['a name of the wrong type', { name: 42 }, 'name must be text'],
    ['an over-long name', { name: 'n'.repeat(101) }, 'name must be at most 100 characters'],
    [
      'an over-long breed',
      { name: 'Rex', breed: 'b'.repeat(101) },
      'breed must be at most 100 characters',
    ],
    [
      'over-long medical info',
      { name: 'Rex', medical_info: 'm'.repeat(1001) },
      'medical_info must be at most 1000 characters',
    ],
    ['a breed of the wrong type', { name: 'Rex', breed: 7 }, 'breed must be text'],
    ['an age given as text', { name: 'Rex', age: '3' }, 'age must be a whole number of years'],
    ['a weight given as text', { name: 'Rex', weight: 'heavy' }, 'weight must be a number of lbs'],
    ['an unknown sex', { name: 'Rex', sex: 'x' }, 'sex must be one of female, male'],
    [
      'a body condition off the 9-point scale',
      { name: 'Rex', body_condition: 10 },
      'body_condition must be a whole number from 1 to 9',
    ],
    [
      'a body condition that is not whole',
      { name: 'Rex', body_condition: 4.5 },
      'body_condition must be a whole number from 1 to 9',
    ],
    [
      'an unknown condition',
      { name: 'Rex', health_conditions: ['kidney'] },
      'health_conditions may hold only airway, breathing, heart',
    ],
    [
      'a repeated condition',
      { name: 'Rex', health_conditions: ['heart', 'heart'] },
      'health_conditions must not repeat a condition',
    ],
    [
      'conditions that are not a list',
      { name: 'Rex', health_conditions: 'heart' },
      'health_conditions must be a list',
    ],
    ['an unknown field', { name: 'Rex', colour: 'brown' }, 'Unknown field: colour'],
    ['an owner field', { name: 'Rex', user_id: randomUUID() }, 'Unknown field: user_id'],
  ])('answers 400 for %s', async (_what, payload, message) => {
    expectError(await create(owner.token, payload), 400, message);
  });

  it('answers 400 for malformed JSON and for an empty JSON body', async () => {
    const headers = { ...bearer(owner.token), 'content-type': 'application/json' };
    expectError(
      await t.app.inject({ method: 'POST', url: '/api/dogs', headers, body: '{"name":' }),
      400,
      'Request body is not valid JSON',
    );
    expectError(
      await t.app.inject({ method: 'POST', url: '/api/dogs', headers }),
      400,
      'Request body must not be empty',
    );
  });
});

describe('GET /api/dogs', () => {
  it('rejects a request without a token', async () => {
    expectError(await t.app.inject({ url: '/api/dogs' }), 401, 'Authentication required');
  });

  it("lists only the caller's pets", async () => {
    const u = await seedUser(t);
    const mine = [
      await seedDog(t, u.id, { name: 'First' }),
      await seedDog(t, u.id, { name: 'Second' }),
    ];
    await seedDog(t, other.id, { name: 'Not Mine' });
    const res = await t.app.inject({ url: '/api/dogs', headers: bearer(u.token) });
    expect(res.statusCode).toBe(200);
    const dogs = res.json().dogs as Array<{ id: string; user_id: string }>;
    expect(dogs.map((d) => d.id).sort()).toEqual(mine.map((d) => d.id).sort());
    expect(dogs.every((d) => d.user_id === u.id)).toBe(true);
  });

  it('answers an empty list for a user without pets', async () => {
    const u = await seedUser(t);
    expect((await t.app.inject({ url: '/api/dogs', headers: bearer(u.token) })).json()).toEqual({
      dogs: [],
      total: 0,
    });
  });
});

describe('GET /api/dogs/all', () => {
  it('rejects a request without a token', async () => {
    expectError(await t.app.inject({ url: '/api/dogs/all' }), 401, 'Authentication required');
  });

  it('refuses a user with 403', async () => {
    expectError(
      await t.app.inject({ url: '/api/dogs/all', headers: bearer(owner.token) }),
      403,
      'Admin access required',
    );
  });

  it("lists every user's pets with the owner's name", async () => {
    const a = await seedDog(t, owner.id, { name: 'Owned By Olive' });
    const b = await seedDog(t, other.id, { name: 'Owned By Other' });
    const res = await t.app.inject({ url: '/api/dogs/all', headers: bearer(admin.token) });
    expect(res.statusCode).toBe(200);
    const dogs = res.json().dogs as Array<Record<string, unknown>>;
    expect(dogs.find((d) => d.id === a.id)).toMatchObject({
      name: 'Owned By Olive',
      user_id: owner.id,
      owner_name: 'Olive Owner',
    });
    expect(dogs.find((d) => d.id === b.id)).toMatchObject({
      user_id: other.id,
      owner_name: other.name,
    });
  });
});

describe('PUT /api/dogs/{id}', () => {
  it('rejects a request without a token', async () => {
    const dog = await seedDog(t, owner.id);
    expectError(
      await t.app.inject({ method: 'PUT', url: `/api/dogs/${dog.id}`, payload: full }),
      401,
      'Authentication required',
    );
  });

  it('replaces the pet: given fields are stored, omitted optional fields become null', async () => {
    const dog = (await create(owner.token, full)).json().dog;
    const res = await update(owner.token, dog.id, { name: '  Rex II  ', age: 6 });
    expect(res.statusCode).toBe(200);
    const expected = {
      id: dog.id,
      user_id: owner.id,
      name: 'Rex II',
      breed: null,
      age: 6,
      weight: null,
      medical_info: null,
      emergency_contact: null,
    };
    expect(res.json().dog).toMatchObject(expected);
    expect(await stored(dog.id)).toMatchObject(expected);
  });

  it("clears a number with '' as a form sends an emptied field", async () => {
    const dog = (await create(owner.token, full)).json().dog;
    const res = await update(owner.token, dog.id, {
      name: dog.name,
      age: '',
      weight: '',
      body_condition: '',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().dog).toMatchObject({ age: null, weight: null, body_condition: null });
    expect(await stored(dog.id)).toMatchObject({ age: null, weight: null });
  });

  it("answers 404 for another user's pet and leaves it unchanged", async () => {
    const theirs = await seedDog(t, other.id, { name: 'Theirs' });
    const before = await stored(theirs.id);
    expectError(await update(owner.token, theirs.id, { name: 'Mine Now' }), 404, 'Pet not found');
    expect(await stored(theirs.id)).toEqual(before);
  });

  it('answers 404 for an unknown pet and 400 for an id that is not an id', async () => {
    expectError(await update(owner.token, randomUUID(), { name: 'Ghost' }), 404, 'Pet not found');
    expectError(
      await update(owner.token, 'not-a-uuid', { name: 'Ghost' }),
      400,
      'id must be a valid id',
    );
  });

  it('validates the body like POST', async () => {
    const dog = await seedDog(t, owner.id);
    expectError(
      await update(owner.token, dog.id, { name: 'Rex', age: 41 }),
      400,
      'age must be between 0 and 40',
    );
    expectError(
      await update(owner.token, dog.id, { name: 'Rex', id: randomUUID() }),
      400,
      'Unknown field: id',
    );
  });
});

describe('DELETE /api/dogs/{id}', () => {
  it('rejects a request without a token', async () => {
    const dog = await seedDog(t, owner.id);
    expectError(
      await t.app.inject({ method: 'DELETE', url: `/api/dogs/${dog.id}` }),
      401,
      'Authentication required',
    );
    expect(await stored(dog.id)).toBeDefined();
  });

  it("deletes the caller's pet", async () => {
    const dog = await seedDog(t, owner.id);
    const res = await remove(owner.token, dog.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(await stored(dog.id)).toBeUndefined();
    expectError(await remove(owner.token, dog.id), 404, 'Pet not found');
  });

  it("answers 404 for another user's pet and keeps it", async () => {
    const theirs = await seedDog(t, other.id);
    expectError(await remove(owner.token, theirs.id), 404, 'Pet not found');
    expect(await stored(theirs.id)).toBeDefined();
  });
});
