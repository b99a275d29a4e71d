import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fahrenheitToCelsius } from '@pawguard/shared';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { ownedCollar } from '../helpers/devices.js';
import { postAsCollar } from '../helpers/readings.js';
import { joinPack, packInvitation } from '../helpers/pack.js';

/**
 * The pack (docs/pack.md): an owner invites by e-mail; the invitee accepts with an account of
 * that address; the member then sees the pet live and hears of its alerts by their own
 * settings; a caregiver acknowledges and resolves but changes nothing else; the owner removes
 * anyone, anyone leaves; a sitter's `until` ends it on time.
 */
let t: TestApp;
let admin: SeededUser;
beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'https://pawguard.example' } });
  admin = await seedUser(t, { role: 'admin' });
});
afterAll(() => t.close());

const DAY = 86_400_000;
type Collar = Awaited<ReturnType<typeof ownedCollar>>;
let seq = 0;
async function post(c: Collar, fahrenheit: number) {
  const at = new Date(t.clock.now().getTime() - 30_000 + ++seq * 10).toISOString();
  const res = await postAsCollar(t, c.device_id, c.device_key, {
    timestamp: at,
    temperature: fahrenheitToCelsius(fahrenheit),
    humidity: 10,
  });
  expect(res.statusCode, res.body).toBe(201);
}
const as = (u: SeededUser) => bearer(u.token);
const get = (u: SeededUser, url: string) => t.app.inject({ url, headers: as(u) });
const invite = (u: SeededUser, dogId: string, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: `/api/dogs/${dogId}/pack/invitations`,
    headers: as(u),
    payload,
  });
const tokenIn = (text: string) => /\/pack\/join#([A-Za-z0-9_-]+)/.exec(text)?.[1];

async function world() {
  const owner = await seedUser(t, { name: 'Ann Owner' });
  const c = await ownedCollar(t, admin, owner, 'Biscuit');
  return { owner, c };
}

describe('inviting, accepting, seeing the pet live', () => {
  it('an owner invites a caregiver by e-mail; the link accepts once; the caregiver sees the pet, its collar and its alerts', async () => {
    const { owner, c } = await world();
    const sitter = await seedUser(t, { name: 'Sam Sitter' });
    const res = await invite(owner, c.pet.id, {
      email: sitter.email.toUpperCase(),
      role: 'caregiver',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().invitation).toMatchObject({
      email: sitter.email,
      role: 'caregiver',
      until: null,
    });
    // The link is in the mail, nowhere else.
    expect(res.body).not.toMatch(/token/);
    await t.app.container.outboxWorker.drain();
    const mail = t.mail.find((m) => m.to === sitter.email)!;
    expect(mail.subject).toBe("Ann Owner invites you to Biscuit's pack on PawGuard");
    expect(mail.text).toMatch(/as caregiver\./);
    const token = tokenIn(mail.text)!;
    expect(mail.text).toContain(`https://pawguard.example/pack/join#${token}`);

    // Before signing in: what it offers.
    const preview = await t.app.inject({
      method: 'POST',
      url: '/api/pack/invitation',
      payload: { token },
    });
    expect(preview.json().invitation).toMatchObject({
      dog_name: 'Biscuit',
      inviter_name: 'Ann Owner',
      role: 'caregiver',
      email: sitter.email,
    });
    const accept = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/pack/accept',
        headers: as(sitter),
        payload: { token },
      });
    const ok = await accept();
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().dog).toMatchObject({
      id: c.pet.id,
      access: 'caregiver',
      owner_name: 'Ann Owner',
    });
    // Once only.
    expect((await accept()).statusCode).toBe(404);

    const dogs = (await get(sitter, '/api/dogs')).json().dogs;
    expect(dogs).toEqual([expect.objectContaining({ id: c.pet.id, access: 'caregiver' })]);
    const devices = (await get(sitter, '/api/devices')).json().devices;
    expect(devices.map((d: { id: string }) => d.id)).toEqual([c.id]);
    await post(c, 110);
    for (const url of [
      `/api/devices/${c.id}`,
      `/api/devices/${c.id}/vitals/latest`,
      `/api/devices/${c.id}/history?range=1h`,
      `/api/devices/${c.id}/alerts`,
      `/api/dogs/${c.pet.id}/activity?days=7`,
      `/api/dogs/${c.pet.id}/pack`,
      `/api/dogs/${c.pet.id}/escalation`,
    ])
      expect((await get(sitter, url)).statusCode, url).toBe(200);
    const alerts = (await get(sitter, '/api/alerts')).json().alerts;
    expect(alerts).toEqual([expect.objectContaining({ device: c.id, level: 'CRITICAL' })]);
    // Each told apart, with their own notification and mail.
    const notes = (await get(sitter, '/api/notifications')).json().notifications;
    expect(notes).toEqual([expect.objectContaining({ title: 'Biscuit: Critical heat alert' })]);
    expect((await get(owner, '/api/notifications')).json().notifications).toHaveLength(1);
    await t.app.container.outboxWorker.drain();
    expect(t.mail.filter((m) => m.to === sitter.email).map((m) => m.subject)).toEqual([
      "Ann Owner invites you to Biscuit's pack on PawGuard",
      expect.stringMatching(/^\[CRITICAL\] Biscuit: heat alert at/),
    ]);
    // The pack as the caregiver sees it: no invitations.
    const pack = (await get(sitter, `/api/dogs/${c.pet.id}/pack`)).json().pack;
    expect(pack).toMatchObject({
      access: 'caregiver',
      owner: { name: 'Ann Owner' },
      invitations: [],
    });
    expect(pack.members).toEqual([
      expect.objectContaining({ user_id: sitter.id, role: 'caregiver', active: true }),
    ]);
  });

  it('a caregiver acknowledges and resolves, and changes nothing else (403, unchanged)', async () => {
    const { owner, c } = await world();
    const sitter = await seedUser(t, { name: 'Cara Giver' });
    await joinPack(t, { dogId: c.pet.id, userId: sitter.id, role: 'caregiver' });
    await post(c, 110);
    const alert = (await get(sitter, `/api/devices/${c.id}/alerts`)).json().alerts[0];
    const ack = await t.app.inject({
      method: 'POST',
      url: `/api/devices/${c.id}/alerts/${alert.id}/acknowledge`,
      headers: as(sitter),
    });
    expect(ack.statusCode, ack.body).toBe(200);
    expect(ack.json().alert.acknowledged_by_name).toBe('Cara Giver');
    const refused: [string, string, object?][] = [
      ['PUT', `/api/dogs/${c.pet.id}`, { name: 'Renamed' }],
      ['DELETE', `/api/dogs/${c.pet.id}`],
      ['PUT', `/api/devices/${c.id}`, { device_name: 'Renamed' }],
      ['DELETE', `/api/devices/${c.id}`],
      ['PUT', `/api/dogs/${c.pet.id}/escalation`, { danger_minutes: 1, critical_minutes: 1 }],
      ['PUT', `/api/dogs/${c.pet.id}/goal`, { active_minutes: 30 }],
      [
        'POST',
        `/api/dogs/${c.pet.id}/pack/invitations`,
        { email: 'x@example.com', role: 'caregiver' },
      ],
    ];
    const before = await t.app.container.db
      .selectFrom('dogs')
      .selectAll()
      .where('id', '=', c.pet.id)
      .execute();
    for (const [method, url, payload] of refused) {
      const res = await t.app.inject({
        method: method as 'PUT',
        url,
        headers: as(sitter),
        ...(payload ? { payload } : {}),
      });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
    }
    expect(
      await t.app.container.db.selectFrom('dogs').selectAll().where('id', '=', c.pet.id).execute(),
    ).toEqual(before);
    expect((await get(owner, `/api/devices/${c.id}`)).json().device.device_name).toBe(
      "Biscuit's collar",
    );
    const resolve = await t.app.inject({
      method: 'POST',
      url: `/api/devices/${c.id}/alerts/${alert.id}/resolve`,
      headers: as(sitter),
    });
    expect(resolve.statusCode).toBe(200);
  });

  it('a co-owner manages the pet and renames its collars, but neither deletes them nor moves a collar off the pet', async () => {
    const { owner, c } = await world();
    const partner = await seedUser(t);
    await joinPack(t, { dogId: c.pet.id, userId: partner.id, role: 'co_owner' });
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/dogs/${c.pet.id}`,
      headers: as(partner),
      payload: { name: 'Biscuit II', breed: 'Pug' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().dog).toMatchObject({
      name: 'Biscuit II',
      user_id: owner.id,
      access: 'co_owner',
    });
    const rename = await t.app.inject({
      method: 'PUT',
      url: `/api/devices/${c.id}`,
      headers: as(partner),
      payload: { device_name: 'Shared collar' },
    });
    expect(rename.statusCode, rename.body).toBe(200);
    expect(rename.json().device).toMatchObject({ device_name: 'Shared collar', user_id: owner.id });
    const move = await t.app.inject({
      method: 'PUT',
      url: `/api/devices/${c.id}`,
      headers: as(partner),
      payload: { device_name: 'Shared collar', dog_id: null },
    });
    expect(move.statusCode).toBe(403);
    for (const url of [`/api/dogs/${c.pet.id}`, `/api/devices/${c.id}`])
      expect((await t.app.inject({ method: 'DELETE', url, headers: as(partner) })).statusCode).toBe(
        403,
      );
    const escalation = await t.app.inject({
      method: 'PUT',
      url: `/api/dogs/${c.pet.id}/escalation`,
      headers: as(partner),
      payload: { danger_minutes: 10, critical_minutes: 3 },
    });
    expect(escalation.statusCode).toBe(200);
  });
});

describe('the invitation link', () => {
  it('refuses another address, a revoked, an expired or a used link; the owner sees and revokes the open ones', async () => {
    const { owner, c } = await world();
    const invited = await seedUser(t);
    const other = await seedUser(t);
    const token = await packInvitation(t, {
      dogId: c.pet.id,
      invitedBy: owner.id,
      email: invited.email,
    });
    const accept = (u: SeededUser, tk: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/pack/accept',
        headers: as(u),
        payload: { token: tk },
      });
    const wrong = await accept(other, token);
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error).toBe(
      `This invitation was sent to ${invited.email}. Sign in with that address to accept it.`,
    );
    const pack = (await get(owner, `/api/dogs/${c.pet.id}/pack`)).json().pack;
    expect(pack.invitations).toEqual([expect.objectContaining({ email: invited.email })]);
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/api/dogs/${c.pet.id}/pack/invitations/${pack.invitations[0].id}`,
      headers: as(owner),
    });
    expect(revoke.statusCode).toBe(200);
    expect((await accept(invited, token)).statusCode).toBe(404);
    // Expired: its week is over (a link made to last a minute, two minutes ago).
    const late = await packInvitation(t, {
      dogId: c.pet.id,
      invitedBy: owner.id,
      email: invited.email,
      validMs: 60_000,
    });
    t.clock.advance(2 * 60_000);
    const expired = await t.app.inject({
      method: 'POST',
      url: '/api/pack/invitation',
      payload: { token: late },
    });
    expect((await accept(invited, late)).statusCode).toBe(404);
    expect(expired.statusCode).toBe(404);
    expect(expired.json().error).toMatch(/used, withdrawn or has expired/);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/pack/invitation',
          payload: { token: 'nope' },
        })
      ).statusCode,
    ).toBe(404);
  });

  it('an invitation is refused for the owner’s own address, for a member, and past the pack’s size', async () => {
    const { owner, c } = await world();
    expect(
      (await invite(owner, c.pet.id, { email: owner.email, role: 'caregiver' })).statusCode,
    ).toBe(400);
    const member = await seedUser(t);
    await joinPack(t, { dogId: c.pet.id, userId: member.id, role: 'caregiver' });
    expect(
      (await invite(owner, c.pet.id, { email: member.email, role: 'co_owner' })).statusCode,
    ).toBe(409);
    const bad = await invite(owner, c.pet.id, { email: 'x@example.com', role: 'owner' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/role must be co_owner or caregiver/);
    const past = await invite(owner, c.pet.id, {
      email: 'y@example.com',
      role: 'caregiver',
      until: new Date(t.clock.now().getTime() - DAY).toISOString(),
    });
    expect(past.statusCode).toBe(400);
    // Another owner's pet: not found.
    const stranger = await seedUser(t);
    expect(
      (await invite(stranger, c.pet.id, { email: 'z@example.com', role: 'caregiver' })).statusCode,
    ).toBe(404);
  });
});

describe('leaving, removal and a sitter’s last day', () => {
  it('a removed member, one who left, and an expired caregiver see nothing and hear of nothing', async () => {
    const { owner, c } = await world();
    const [removed, leaver, sitter] = [await seedUser(t), await seedUser(t), await seedUser(t)];
    await joinPack(t, { dogId: c.pet.id, userId: removed.id, role: 'co_owner' });
    await joinPack(t, { dogId: c.pet.id, userId: leaver.id, role: 'caregiver' });
    await joinPack(t, {
      dogId: c.pet.id,
      userId: sitter.id,
      role: 'caregiver',
      until: new Date(t.clock.now().getTime() + 60_000).toISOString(),
    });
    const del = (u: SeededUser, userId: string) =>
      t.app.inject({
        method: 'DELETE',
        url: `/api/dogs/${c.pet.id}/pack/members/${userId}`,
        headers: as(u),
      });
    // A member cannot remove another; the owner can; a member leaves.
    expect((await del(leaver, removed.id)).statusCode).toBe(403);
    expect((await del(owner, removed.id)).statusCode).toBe(200);
    expect((await del(leaver, leaver.id)).statusCode).toBe(200);
    // The sitter's time ends (a minute here).
    expect((await get(sitter, `/api/devices/${c.id}`)).statusCode).toBe(200);
    t.clock.advance(60_000 + 1_000);
    await post(c, 110);
    for (const u of [removed, leaver, sitter]) {
      for (const url of [
        `/api/devices/${c.id}`,
        `/api/dogs/${c.pet.id}/pack`,
        `/api/devices/${c.id}/alerts`,
      ])
        expect((await get(u, url)).statusCode, url).toBe(404);
      expect((await get(u, '/api/dogs')).json().dogs).toEqual([]);
      expect((await get(u, '/api/devices')).json().devices).toEqual([]);
      expect((await get(u, '/api/alerts')).json().alerts).toEqual([]);
      expect((await get(u, '/api/notifications')).json().notifications).toEqual([]);
    }
    // The owner still sees the lapsed sitter in the list, inactive; the sitter may still leave.
    const pack = (await get(owner, `/api/dogs/${c.pet.id}/pack`)).json().pack;
    expect(pack.members).toEqual([expect.objectContaining({ user_id: sitter.id, active: false })]);
    expect((await del(sitter, sitter.id)).statusCode).toBe(200);
    expect((await get(owner, `/api/dogs/${c.pet.id}/pack`)).json().pack.members).toEqual([]);
    // And a member never posts readings for a shared collar (as to anyone but its owner: 404).
    const partner = await seedUser(t);
    await joinPack(t, { dogId: c.pet.id, userId: partner.id, role: 'co_owner' });
    const fake = await t.app.inject({
      method: 'POST',
      url: `/api/devices/${c.device_id}/vitals`,
      headers: as(partner),
      payload: { temperature: 20, humidity: 40 },
    });
    expect(fake.statusCode).toBe(404);
  });

  it('a "not yet acknowledged" reminder goes to the whole pack', async () => {
    const { owner, c } = await world();
    const partner = await seedUser(t);
    await joinPack(t, { dogId: c.pet.id, userId: partner.id, role: 'co_owner' });
    await post(c, 110);
    t.clock.advance(5 * 60_000 + 1_000);
    expect(await t.app.container.alerts.sweepUnacknowledged()).toBeGreaterThanOrEqual(1);
    for (const u of [owner, partner]) {
      const kinds = (await get(u, '/api/notifications'))
        .json()
        .notifications.map((n: { kind: string }) => n.kind);
      expect(kinds).toEqual(['unacknowledged', 'opened']);
    }
  });
});
