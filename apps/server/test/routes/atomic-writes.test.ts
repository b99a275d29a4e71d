import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHash } from 'node:crypto';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { expectError } from '../helpers/api.js';
import {
  createDog,
  deviceRow,
  freshDeviceId,
  ownedCollar,
  prePopulate,
} from '../helpers/devices.js';

/** Multi-step writes happen whole or not at all, and a pet that vanishes mid-request is a 404. */
let t: TestApp;
let admin: SeededUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await seedUser(t, { role: 'admin' });
});
afterAll(() => t.close());

/** The pet passes the ownership check, then is deleted before the write that names it. */
function deletePetRightAfterTheCheck() {
  const dogs = t.app.container.repos.dogs;
  const original = dogs.findOwned.bind(dogs);
  return vi.spyOn(dogs, 'findOwned').mockImplementationOnce(async (id, userId, ex) => {
    const pet = await original(id, userId, ex);
    await t.app.container.db.deleteFrom('dogs').where('id', '=', id).execute();
    return pet;
  });
}

describe('a pet deleted in the middle of a request', () => {
  it('answers 404 Pet not found on assign, on the fallback and on a move, never 500', async () => {
    const owner = await seedUser(t);
    const [free] = await prePopulate(t, admin);
    const c = await ownedCollar(t, admin, owner);
    const cases = [
      async (dogId: string) =>
        t.app.inject({
          method: 'POST',
          url: `/api/devices/assign/${free!.device_id}`,
          headers: bearer(owner.token),
          payload: { dog_id: dogId, device_name: 'x' },
        }),
      async (dogId: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/devices',
          headers: bearer(owner.token),
          payload: { device_id: freshDeviceId(), dog_id: dogId, device_name: 'x' },
        }),
      async (dogId: string) =>
        t.app.inject({
          method: 'PUT',
          url: `/api/devices/${c.id}`,
          headers: bearer(owner.token),
          payload: { device_name: 'x', dog_id: dogId },
        }),
    ];
    for (const call of cases) {
      const pet = await createDog(t, owner, 'Fleeting');
      const spy = deletePetRightAfterTheCheck();
      expectError(await call(pet.id), 404, 'Pet not found');
      spy.mockRestore();
    }
    expect((await deviceRow(t, free!.id))!.registration_status).toBe('unassigned');
  });
});

describe('deleting a pet', () => {
  it('takes its collars off it and deletes it in one transaction: a failure leaves both as they were', async () => {
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    const spy = vi
      .spyOn(t.app.container.repos.dogs, 'deleteOwned')
      .mockRejectedValueOnce(new Error('disk full'));
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/dogs/${c.pet.id}`,
      headers: bearer(owner.token),
    });
    spy.mockRestore();
    expect(res.statusCode).toBe(500);
    expect((await deviceRow(t, c.id))!.dog_id).toBe(c.pet.id);
  });
});

describe('confirming an e-mail address', () => {
  it('spends the link only together with confirming the address', async () => {
    const { user } = await t.app.container.auth.register({
      email: 'atomic@example.com',
      password: 'long enough pw',
      name: 'Atomic',
    });
    const token = 'a-known-confirmation-token';
    await t.app.container.repos.confirmations.insert({
      token_hash: createHash('sha256').update(token).digest('hex'),
      user_id: user.id,
      expires_at: new Date(t.clock.now().getTime() + 60_000).toISOString(),
      used_at: null,
    });
    const spy = vi
      .spyOn(t.app.container.repos.users, 'markEmailVerified')
      .mockRejectedValueOnce(new Error('connection lost'));
    expect((await t.app.inject({ url: `/api/auth/confirm/${token}` })).statusCode).toBe(500);
    spy.mockRestore();
    const again = await t.app.inject({ url: `/api/auth/confirm/${token}` });
    expect(again.headers.location).toBe('/?confirmed=1');
    const row = await t.app.container.repos.users.findById(user.id);
    expect(row!.email_verified_at).not.toBeNull();
  });
});
