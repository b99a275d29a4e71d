import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@pawguard/shared';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { expectError } from '../helpers/api.js';
import {
  assign,
  createDog,
  deviceRow,
  freshDeviceId,
  ownedCollar,
  prePopulate,
} from '../helpers/devices.js';

/**
 * AC-8: only an admin provisions devices; a customer claims only an unassigned one; claiming
 * a device someone holds fails; of concurrent claims exactly one wins. (The spec's flow has
 * no claim secret or time window: the Device ID printed on the collar is what the customer
 * types, so the rule rests on the state check and the single conditional update.)
 */

let t: TestApp;
let admin: SeededUser;
let claimants: Array<{ user: SeededUser; dogId: string }>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await seedUser(t, { role: 'admin' });
  claimants = [];
  for (let i = 0; i < 6; i++) {
    const user = await seedUser(t);
    claimants.push({ user, dogId: (await createDog(t, user, `Claimant ${i}`)).id });
  }
});
afterAll(() => t.close());

describe('AC-8: claiming a collar', () => {
  it('only an admin provisions devices', async () => {
    const u = claimants[0]!.user;
    expectError(
      await t.app.inject({
        method: 'POST',
        url: '/api/admin/devices/pre-populate',
        headers: bearer(u.token),
        payload: { devices: [{ device_id: freshDeviceId(), device_address: '02:00:00:00:00:01' }] },
      }),
      403,
    );
  });

  it('refuses a collar in every state but unassigned, and changes nothing', async () => {
    const { user, dogId } = claimants[1]!;
    const holder = await seedUser(t);
    const assigned = await ownedCollar(t, admin, holder);
    // An active collar (it has sent data).
    const active = await ownedCollar(t, admin, holder);
    await t.app.container.db
      .updateTable('devices')
      .set({ registration_status: 'active', status: 'active' })
      .where('id', '=', active.id)
      .execute();
    // A customer's unregistered device.
    const holderPet = await createDog(t, holder);
    const unregistered = (
      await t.app.inject({
        method: 'POST',
        url: '/api/devices',
        headers: bearer(holder.token),
        payload: { device_id: freshDeviceId(), dog_id: holderPet.id, device_name: 'x' },
      })
    ).json().device;
    for (const d of [assigned, active, unregistered]) {
      const before = await deviceRow(t, d.id);
      expectError(
        await assign(t, user, d.device_id, { dog_id: dogId, device_name: 'Mine' }),
        409,
        MESSAGES.deviceAlreadyAssigned(d.device_id),
      );
      expect(await deviceRow(t, d.id)).toEqual(before);
    }
    // The holder's own second claim changes nothing either.
    const before = await deviceRow(t, assigned.id);
    expectError(
      await assign(t, holder, assigned.device_id, { dog_id: holderPet.id, device_name: 'Again' }),
      409,
      /already registered to you/,
    );
    expect(await deviceRow(t, assigned.id)).toEqual(before);
  });

  it('of two simultaneous claims of one collar exactly one wins', async () => {
    const [d] = await prePopulate(t, admin);
    const [a, b] = claimants;
    const results = await Promise.all([
      assign(t, a!.user, d!.device_id, { dog_id: a!.dogId, device_name: 'A' }),
      assign(t, b!.user, d!.device_id, { dog_id: b!.dogId, device_name: 'B' }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const winner = results[0]!.statusCode === 200 ? a! : b!;
    expect(await deviceRow(t, d!.id)).toMatchObject({
      user_id: winner.user.id,
      dog_id: winner.dogId,
      registration_status: 'assigned',
    });
  });

  it('of any number of claims, in any order, exactly one wins (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.uniqueArray(fc.nat({ max: claimants.length - 1 }), {
          minLength: 2,
          maxLength: claimants.length,
        }),
        async (s, who) => {
          const [d] = await prePopulate(t, admin);
          // The scheduler decides in which order the claims start; then they race for real.
          const claims = who.map((i) =>
            s.schedule(Promise.resolve(i), `claimant ${i}`).then(() =>
              assign(t, claimants[i]!.user, d!.device_id, {
                dog_id: claimants[i]!.dogId,
                device_name: `C${i}`,
              }),
            ),
          );
          await s.waitAll();
          const results = await Promise.all(claims);
          const won = results
            .map((r, k) => (r.statusCode === 200 ? who[k]! : -1))
            .filter((i) => i >= 0);
          expect(won).toHaveLength(1);
          expect(results.filter((r) => r.statusCode === 409)).toHaveLength(who.length - 1);
          expect((await deviceRow(t, d!.id))!.user_id).toBe(claimants[won[0]!]!.user.id);
        },
      ),
      { numRuns: 15 },
    );
  });
});
