import { sql } from 'kysely';
import fs from 'node:fs';
import path from 'node:path';
import { Migrator } from 'kysely/migration';
import { afterEach, describe, expect, it } from 'vitest';
import { migrations } from '../../src/db/migrations/index.js';
import { createTestApp, seedUser, type TestApp } from '../helpers/app.js';
import { ownedCollar } from '../helpers/devices.js';
import { postAsCollar, readingRows } from '../helpers/readings.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('migrations 011–022 down and up again', () => {
  it('migrate down to 010 and back to the latest, keeping the rows they leave alone', async () => {
    t = await createTestApp();
    const db = t.dbHandle.migrationDb ?? t.dbHandle.db;
    const admin = await seedUser(t, { role: 'admin' });
    const owner = await seedUser(t);
    const c = await ownedCollar(t, admin, owner);
    const at = t.clock.now().getTime() - 60_000;
    const posted = await postAsCollar(t, c.device_id, c.device_key, [
      { temperature: 24, humidity: 40, timestamp: new Date(at).toISOString() },
      { temperature: 26, humidity: 42, timestamp: new Date(at + 1_000).toISOString() },
    ]);
    expect(posted.statusCode).toBe(201);
    await t.app.container.repos.outbox.enqueue(
      { idempotencyKey: 'migration-round-trip', to: 'a@example.com', subject: 'S', text: 'T' },
      t.clock.now().toISOString(),
    );
    // A push waiting in the outbox: going down must not leave it for the mail worker.
    const pushUser = await seedUser(t);
    const sub = await t.app.container.repos.push.subscribe(
      {
        user_id: pushUser.id,
        endpoint: 'https://8.8.8.8/push/migration',
        p256dh: 'k',
        auth: 'a',
        created_at: t.clock.now().toISOString(),
      },
      5,
    );
    await t.app.container.repos.push.enqueue(
      { idempotencyKey: 'migration-push', subscriptionId: sub.id, title: 'T', payload: '{}' },
      t.clock.now().toISOString(),
    );
    const migrator = new Migrator({
      db,
      provider: { getMigrations: () => Promise.resolve(migrations) },
      ...(t.dbHandle.schema ? { migrationTableSchema: t.dbHandle.schema } : {}),
    });

    const down = await migrator.migrateTo('010-user-time-zone');
    expect(down.error).toBeUndefined();
    expect(down.results?.map((r) => [r.migrationName, r.direction, r.status])).toEqual(
      [
        '022-shared-keys',
        '021-pack',
        '020-escalation',
        '019-push',
        '018-device-uuid',
        '017-activity',
        '016-outbox-given-up',
        '015-reading-rollups',
        '014-outbox-claims',
        '013-readings-stored',
        '012-alert-acknowledged',
        '011-user-units',
      ].map((name) => [name, 'Down', 'Success']),
    );
    // What 011–022 added is gone; the rows of the tables are not.
    const schema = t.dbHandle.schema;
    const ours = async () =>
      (await db.introspection.getTables()).filter((x) => !schema || x.schema === schema);
    const columns = async (name: string) =>
      ((await ours()).find((x) => x.name === name)?.columns ?? []).map((col) => col.name);
    expect((await ours()).map((x) => x.name)).not.toContain('reading_rollups');
    expect((await ours()).map((x) => x.name)).not.toContain('activity_hours');
    expect(await columns('users')).not.toContain('temperature_unit');
    expect(await columns('devices')).not.toContain('readings_stored');
    expect(await columns('outbox')).not.toContain('claimed_by');
    expect(await columns('outbox')).not.toContain('failure_reason');
    expect(await columns('outbox')).not.toContain('channel');
    const left = await db.selectFrom('outbox').select('idempotency_key').execute();
    expect(left.map((r) => r.idempotency_key)).toEqual(['migration-round-trip']);
    expect((await ours()).map((x) => x.name)).not.toContain('push_subscriptions');
    expect(await columns('alerts')).not.toContain('acknowledged_at');
    for (const table of ['readings', 'alerts', 'alert_mails'])
      expect(await columns(table), table).toContain('device_id');
    // The readings by the column's name before 018.
    const before = await db
      .selectFrom('readings')
      .select('id')
      .where(sql.ref('device_id'), '=', c.id)
      .execute();
    expect(before).toHaveLength(2);

    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();
    expect(up.results?.map((r) => [r.migrationName, r.direction, r.status])).toEqual(
      [
        '011-user-units',
        '012-alert-acknowledged',
        '013-readings-stored',
        '014-outbox-claims',
        '015-reading-rollups',
        '016-outbox-given-up',
        '017-activity',
        '018-device-uuid',
        '019-push',
        '020-escalation',
        '021-pack',
        '022-shared-keys',
      ].map((name) => [name, 'Up', 'Success']),
    );
    for (const table of ['readings', 'reading_rollups', 'activity_hours', 'alerts', 'alert_mails'])
      expect(await columns(table), table).toEqual(
        expect.arrayContaining(['device_uuid']) as unknown,
      );
    expect(await columns('readings')).not.toContain('device_id');
    expect(await readingRows(t, c.id)).toHaveLength(2);
    const device = await db
      .selectFrom('devices')
      .select('readings_stored')
      .where('id', '=', c.id)
      .executeTakeFirstOrThrow();
    // Counted again from the readings, and the rollups summed up again from them.
    expect(Number(device.readings_stored)).toBe(2);
    const rollups = await db
      .selectFrom('reading_rollups')
      .select(['bucket_seconds', 'count', 'temperature_min', 'temperature_max'])
      .where('device_uuid', '=', c.id)
      .execute();
    const total = (seconds: number) =>
      rollups.filter((r) => r.bucket_seconds === seconds).reduce((n, r) => n + Number(r.count), 0);
    expect([total(60), total(3600)]).toEqual([2, 2]);
    const hours = rollups.filter((r) => r.bucket_seconds === 3600);
    expect(Math.min(...hours.map((r) => Number(r.temperature_min)))).toBe(24);
    expect(Math.max(...hours.map((r) => Number(r.temperature_max)))).toBe(26);
    const mail = await db
      .selectFrom('outbox')
      .select(['status', 'claimed_by', 'failed_at', 'failure_reason'])
      .where('idempotency_key', '=', 'migration-round-trip')
      .executeTakeFirstOrThrow();
    expect(mail).toEqual({
      status: 'pending',
      claimed_by: null,
      failed_at: null,
      failure_reason: null,
    });
    // The server works on the result: a reading is stored and summed up.
    expect(
      (await postAsCollar(t, c.device_id, c.device_key, { temperature: 25, humidity: 41 }))
        .statusCode,
    ).toBe(201);
    expect(await readingRows(t, c.id)).toHaveLength(3);
  });
});

describe('migrations', () => {
  it('import nothing but Kysely: what they write never changes with the code around them', () => {
    const dir = path.join(import.meta.dirname, '../../src/db/migrations');
    for (const file of fs.readdirSync(dir).filter((f) => /^\d{3}-.*\.ts$/.test(f))) {
      const imports = [
        ...fs.readFileSync(path.join(dir, file), 'utf8').matchAll(/from '([^']+)'/g),
      ];
      expect(
        imports.map((m) => m[1]).filter((from) => from !== 'kysely'),
        file,
      ).toEqual([]);
    }
  });
});
