import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, seedUser, usePostgres, type TestApp } from '../helpers/app.js';
import { ownedCollar } from '../helpers/devices.js';
import { postAsCollar, readingRows } from '../helpers/readings.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const count = async (table: 'sessions' | 'email_confirmations' | 'outbox') =>
  Number(
    (
      await t.app.container.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('housekeeping', () => {
  it('prunes ended sessions, spent confirmation links and old sent mail, and nothing live', async () => {
    const live = await seedUser(t);
    const leaving = await seedUser(t);
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: bearer(leaving.token),
    });
    // Two registrations: two links and two mails; one link used, both mails sent.
    const reg = await Promise.all(
      ['a', 'b'].map((n) =>
        t.app.container.auth.register({
          email: `hk-${n}@example.com`,
          password: 'long enough pw',
          name: n,
        }),
      ),
    );
    expect(reg).toHaveLength(2);
    const [first] = await t.app.container.db
      .selectFrom('email_confirmations')
      .selectAll()
      .execute();
    await t.app.container.db
      .updateTable('email_confirmations')
      .set({ used_at: new Date().toISOString() })
      .where('token_hash', '=', first!.token_hash)
      .execute();
    await t.app.container.outboxWorker.drain();
    const before = {
      sessions: await count('sessions'),
      links: await count('email_confirmations'),
      mail: await count('outbox'),
    };

    expect(await t.app.container.housekeeping.prune()).toEqual({
      sessions: 1,
      confirmations: 1,
      mail: 0,
      tickets: 0,
      readings: 0,
      rollups: 0,
    });
    expect(
      (await t.app.inject({ url: '/api/auth/profile', headers: bearer(live.token) })).statusCode,
    ).toBe(200);

    // A month later: the sent mail goes, and so do sessions and links that have expired.
    t.clock.advance(31 * 24 * 60 * 60 * 1000);
    const later = await t.app.container.housekeeping.prune();
    expect(later.mail).toBe(before.mail);
    expect(later.confirmations).toBe(before.links - 1);
    expect(later.sessions).toBe(before.sessions - 1);
    expect(await count('sessions')).toBe(0);
    expect(await count('email_confirmations')).toBe(0);
    expect(await count('outbox')).toBe(0);
  });
});

describe('retention beside a release (PostgreSQL: the order locks are taken in)', () => {
  it.runIf(usePostgres)(
    'prunes while an owner releases the same collar, neither waiting on the other for good',
    async () => {
      const admin = await seedUser(t, { role: 'admin' });
      const owner = await seedUser(t);
      const c = await ownedCollar(t, admin, owner);
      const now = t.clock.now().getTime();
      const readings = Array.from({ length: 50 }, (_, i) => ({
        timestamp: new Date(now - (i + 1) * 60_000).toISOString(),
        temperature: 25,
        humidity: 40,
      }));
      expect((await postAsCollar(t, c.device_id, c.device_key, readings)).statusCode).toBe(201);
      const { db, repos } = t.app.container;
      // A release as the owner's DELETE makes it: the collar's row first, then its readings.
      let pruning: Promise<number> | undefined;
      await db.transaction().execute(async (trx) => {
        await trx.selectFrom('devices').select('id').where('id', '=', c.id).forUpdate().execute();
        // Retention starts meanwhile, on every reading (a cutoff in the future).
        pruning = repos.readings.pruneOlderThan(now + 86_400_000, 1000, true);
        await new Promise((r) => setTimeout(r, 300));
        await trx.deleteFrom('readings').where('device_uuid', '=', c.id).execute();
        await trx
          .updateTable('devices')
          .set({ readings_stored: 0 })
          .where('id', '=', c.id)
          .execute();
      });
      // Neither was chosen as a deadlock's victim, and nothing was counted off twice.
      await expect(pruning).resolves.toBeGreaterThanOrEqual(0);
      const row = await db
        .selectFrom('devices')
        .select('readings_stored')
        .where('id', '=', c.id)
        .executeTakeFirstOrThrow();
      expect(Number(row.readings_stored)).toBe(0);
      expect(await readingRows(t, c.id)).toHaveLength(0);
    },
  );
});
