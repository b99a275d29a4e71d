import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fahrenheitToCelsius } from '@pawguard/shared';
import { bearer, createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { expectError } from '../helpers/api.js';
import { deviceRow, ownedCollar, prePopulate } from '../helpers/devices.js';
import { ago, postAsCollar, readingRows } from '../helpers/readings.js';

let t: TestApp;
let admin: SeededUser;
let owner: SeededUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await seedUser(t, { role: 'admin' });
  owner = await seedUser(t, { name: 'Olive Owner' });
});
afterAll(() => t.close());

const reading = { temperature: 24.5, humidity: 41 };

describe('POST /api/devices/{deviceId}/vitals: who may post', () => {
  it('rejects a request without credentials', async () => {
    const c = await ownedCollar(t, admin, owner);
    expectError(
      await t.app.inject({
        method: 'POST',
        url: `/api/devices/${c.device_id}/vitals`,
        payload: reading,
      }),
      401,
    );
  });

  it('takes a reading from the collar with its key and answers 201 with what was stored', async () => {
    const c = await ownedCollar(t, admin, owner);
    const res = await postAsCollar(t, c.device_id, c.device_key, {
      ...reading,
      heart_rate: 92,
      activity_level: 30,
      battery: 80,
      status: 'SAFE',
      location: { lat: 51.5, lon: -0.12 },
    });
    expect(res.statusCode, res.body).toBe(201);
    const v = res.json().vitals;
    expect(v).toMatchObject({
      device_id: c.device_id,
      temperature: 24.5,
      humidity: 41,
      heart_rate: 92,
      activity_level: 30,
      battery: 80,
      status: 'SAFE',
      reported_status: 'SAFE',
      location: { lat: 51.5, lon: -0.12 },
    });
    expect(await readingRows(t, c.id)).toHaveLength(1);
  });

  it('refuses a wrong key with 401 and another collar’s key on this path with 403', async () => {
    const a = await ownedCollar(t, admin, owner);
    const b = await ownedCollar(t, admin, owner);
    expectError(await postAsCollar(t, a.device_id, 'x'.repeat(43), reading), 401);
    expectError(await postAsCollar(t, a.device_id, b.device_key, reading), 403);
    expect(await readingRows(t, a.id)).toHaveLength(0);
    expect(await readingRows(t, b.id)).toHaveLength(0);
  });

  it('refuses a collar nobody holds (pre-populated, or released by its owner)', async () => {
    const [stock] = await prePopulate(t, admin);
    expectError(
      await postAsCollar(t, stock!.device_id, stock!.device_key, reading),
      403,
      /not registered/,
    );
    const c = await ownedCollar(t, admin, owner);
    await t.app.inject({
      method: 'DELETE',
      url: `/api/devices/${c.id}`,
      headers: bearer(owner.token),
    });
    expectError(await postAsCollar(t, c.device_id, c.device_key, reading), 403, /not registered/);
    expect(await readingRows(t, c.id)).toHaveLength(0);
  });

  it('takes a reading from the owner’s session and an admin’s, and 404 from anyone else', async () => {
    const c = await ownedCollar(t, admin, owner);
    const other = await seedUser(t);
    const post = (token: string, temperature: number) =>
      t.app.inject({
        method: 'POST',
        url: `/api/devices/${c.device_id.toLowerCase()}/vitals`,
        headers: bearer(token),
        payload: { temperature, humidity: 40 },
      });
    expect((await post(owner.token, 20)).statusCode).toBe(201);
    expect((await post(admin.token, 21)).statusCode).toBe(201);
    expectError(await post(other.token, 22), 404);
    expect((await readingRows(t, c.id)).map((r) => r.temperature)).toEqual([20, 21]);
  });
});

describe('POST vitals: bad input stores nothing', () => {
  const cases: [string, unknown, RegExp][] = [
    ['a missing temperature', { humidity: 40 }, /^temperature is required$/],
    ['a missing humidity', { temperature: 20 }, /^humidity is required$/],
    [
      'an implausible temperature',
      { temperature: 61, humidity: 40 },
      /^temperature must be between -40 and 60$/,
    ],
    ['a humidity over 100', { temperature: 20, humidity: 101 }, /^humidity must be/],
    [
      'a fractional heart rate',
      { ...reading, heart_rate: 80.5 },
      /^heart_rate must be a whole number/,
    ],
    ['a heart rate of 400', { ...reading, heart_rate: 400 }, /^heart_rate must be/],
    ['a battery of 120', { ...reading, battery: 120 }, /^battery must be/],
    ['an unknown field', { ...reading, owner: 'me' }, /^Unknown field: owner$/],
    ['text for a number', { temperature: '20', humidity: 40 }, /^temperature must be a number$/],
    ['a bad timestamp', { ...reading, timestamp: 'yesterday' }, /^timestamp must be an ISO-8601/],
    ['a location without lon', { ...reading, location: { lat: 1 } }, /^location\.lon is required$/],
    ['a body that is not a reading', 'hello', /must be a reading/],
    ['an empty list', [], /at least one reading/],
  ];
  for (const [what, payload, message] of cases) {
    it(`refuses ${what} with 400`, async () => {
      const c = await ownedCollar(t, admin, owner);
      expectError(await postAsCollar(t, c.device_id, c.device_key, payload), 400, message);
      expect(await readingRows(t, c.id)).toHaveLength(0);
      expect((await deviceRow(t, c.id))!.last_seen).toBeNull();
    });
  }

  it('refuses a timestamp more than 5 minutes ahead, and takes one 4 minutes ahead', async () => {
    const c = await ownedCollar(t, admin, owner);
    const ahead = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();
    expectError(
      await postAsCollar(t, c.device_id, c.device_key, {
        ...reading,
        timestamp: ahead(6 * 60_000),
      }),
      400,
      'timestamp is more than 5 minutes in the future',
    );
    expect(
      (
        await postAsCollar(t, c.device_id, c.device_key, {
          ...reading,
          timestamp: ahead(4 * 60_000),
        })
      ).statusCode,
    ).toBe(201);
  });

  it('refuses a whole batch with one bad item, naming its index, and stores none of it', async () => {
    const c = await ownedCollar(t, admin, owner);
    const batch = [0, 1, 2, 3].map((i) => ({ ...reading, timestamp: ago(t, (10 - i) * 1000) }));
    batch[2] = { ...batch[2]!, humidity: -5 };
    expectError(
      await postAsCollar(t, c.device_id, c.device_key, batch),
      400,
      /^readings\[2\]\.humidity must be between 0 and 100$/,
    );
    expect(await readingRows(t, c.id)).toHaveLength(0);
  });

  it.each([
    ['a missing field', { humidity: 40 }, 'readings[1].temperature is required'],
    [
      'a missing nested field',
      { ...reading, location: { lat: 1 } },
      'readings[1].location.lon is required',
    ],
    ['text for a number', { ...reading, battery: '80' }, 'readings[1].battery must be a number'],
  ])('names the index of a batch item with %s', async (_what, item, message) => {
    const c = await ownedCollar(t, admin, owner);
    expectError(await postAsCollar(t, c.device_id, c.device_key, [reading, item]), 400, message);
    expect(await readingRows(t, c.id)).toHaveLength(0);
  });

  it('refuses more than 1,000 readings in one request', async () => {
    const c = await ownedCollar(t, admin, owner);
    const batch = Array.from({ length: 1001 }, (_, i) => ({
      temperature: 20,
      humidity: 40,
      timestamp: i,
    }));
    expectError(await postAsCollar(t, c.device_id, c.device_key, batch), 400, /at most 1000/);
    expect(await readingRows(t, c.id)).toHaveLength(0);
  });

  it('answers 413 to a body over the size limit', async () => {
    const c = await ownedCollar(t, admin, owner);
    const res = await postAsCollar(t, c.device_id, c.device_key, {
      ...reading,
      status: 'x'.repeat(600_000),
    });
    expectError(res, 413);
    expect(await readingRows(t, c.id)).toHaveLength(0);
  });

  it('never answers 5xx to malformed JSON or a body of another type', async () => {
    const c = await ownedCollar(t, admin, owner);
    for (const payload of [
      '{"temperature":',
      'null',
      '12',
      '[1,2]',
      '{"temperature":1e999,"humidity":1}',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/devices/${c.device_id}/vitals`,
        headers: { authorization: `Device ${c.device_key}`, 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
    }
    expect(await readingRows(t, c.id)).toHaveLength(0);
  });
});

describe('POST vitals: batches, idempotency and what a reading changes', () => {
  it('stores a backlog in one request and answers each reading in the order sent', async () => {
    const c = await ownedCollar(t, admin, owner);
    const batch = Array.from({ length: 300 }, (_, i) => ({
      temperature: 20 + (i % 10) / 10,
      humidity: 40,
      timestamp: ago(t, (600 - i) * 1000),
    }));
    const res = await postAsCollar(t, c.device_id, c.device_key, batch);
    expect(res.statusCode, res.body).toBe(201);
    const answered = res.json().vitals as { timestamp: string }[];
    expect(answered.map((v) => v.timestamp)).toEqual(batch.map((b) => b.timestamp));
    expect(await readingRows(t, c.id)).toHaveLength(300);
  });

  it('stores a repeated (device, timestamp) once and answers the stored reading', async () => {
    const c = await ownedCollar(t, admin, owner);
    const at = ago(t, 5_000);
    const first = await postAsCollar(t, c.device_id, c.device_key, { ...reading, timestamp: at });
    const again = await postAsCollar(t, c.device_id, c.device_key, {
      temperature: 30,
      humidity: 10,
      timestamp: at,
    });
    expect(again.statusCode).toBe(201);
    expect(again.json().vitals).toEqual(first.json().vitals);
    // Epoch milliseconds name the same instant.
    const asMs = await postAsCollar(t, c.device_id, c.device_key, {
      ...reading,
      timestamp: Date.parse(at),
    });
    expect(asMs.json().vitals.id).toBe(first.json().vitals.id);
    // The same time twice in one batch is stored once, too (one instant: two calls of the
    // clock may fall in different milliseconds).
    const twice = ago(t, 1000);
    const dup = await postAsCollar(t, c.device_id, c.device_key, [
      { ...reading, timestamp: twice },
      { ...reading, timestamp: twice },
    ]);
    expect(dup.statusCode).toBe(201);
    expect(await readingRows(t, c.id)).toHaveLength(2);
  });

  it('concurrent posts of many collars are all stored, each answered with its own reading', async () => {
    const collars = await Promise.all([1, 2, 3, 4].map(() => ownedCollar(t, admin, owner)));
    const results = await Promise.all(
      collars.flatMap((c, i) =>
        [0, 1, 2, 3, 4].map((j) =>
          postAsCollar(t, c.device_id, c.device_key, {
            temperature: i * 10 + j,
            humidity: 40,
            timestamp: ago(t, (10 - j) * 1000),
          }),
        ),
      ),
    );
    expect(results.every((r) => r.statusCode === 201)).toBe(true);
    for (const [i, c] of collars.entries()) {
      const rows = await readingRows(t, c.id);
      expect(rows.map((r) => r.temperature)).toEqual([0, 1, 2, 3, 4].map((j) => i * 10 + j));
    }
  });

  it('updates each collar of a shared commit with its own reading, absent fields kept', async () => {
    const collars = await Promise.all([0, 1, 2, 3, 4, 5].map(() => ownedCollar(t, admin, owner)));
    // A first reading each, with every field, one commit at a time.
    for (const [i, c] of collars.entries())
      await postAsCollar(t, c.device_id, c.device_key, {
        temperature: 20 + i,
        humidity: 30 + i,
        heart_rate: 70 + i,
        activity_level: 10 + i,
        battery: 90 - i,
        timestamp: ago(t, 60_000),
      });
    // Then a second for all of them, handed to ingest in one go so that they share one commit
    // (the batch writes their rows together); only the odd ones send heart rate and activity.
    const commits = t.app.container.ingest.batchCount;
    const at = Date.parse(ago(t, 30_000));
    await Promise.all(
      collars.map((c, i) =>
        t.app.container.ingest.submit(c.id, [
          {
            temperature: 30 + i,
            humidity: 50 + i,
            ...(i % 2 ? { heart_rate: 100 + i, activity_level: 60 + i } : {}),
            timestamp: at,
          },
        ]),
      ),
    );
    expect(t.app.container.ingest.batchCount - commits).toBe(1);
    for (const [i, c] of collars.entries()) {
      expect(await deviceRow(t, c.id)).toMatchObject({
        temperature_celsius: 30 + i,
        humidity_percent: 50 + i,
        heart_rate: i % 2 ? 100 + i : 70 + i,
        activity_level: i % 2 ? 60 + i : 10 + i,
        battery_level: 90 - i,
      });
    }
  });

  it('stores a reading beside one large list, not behind a queue of other collars’ lists, each collar in order', async () => {
    const a = await ownedCollar(t, admin, owner);
    const b = await ownedCollar(t, admin, owner);
    const c = await ownedCollar(t, admin, owner);
    const list = (from: number) =>
      Array.from({ length: 1000 }, (_, i) => ({
        temperature: 22,
        humidity: 45,
        timestamp: Date.parse(ago(t, (from - i) * 1000)),
      }));
    const done: string[] = [];
    const submit = (
      name: string,
      id: string,
      readings: { temperature: number; humidity: number; timestamp?: number }[],
    ) =>
      t.app.container.ingest.submit(id, readings).then((stored) => {
        done.push(name);
        return stored;
      });
    // Handed to ingest in one go: two lists of collar a, one of b, then c's single reading.
    const results = await Promise.all([
      submit('a1', a.id, list(5000)),
      submit('b1', b.id, list(5000)),
      submit('a2', a.id, list(3000)),
      submit('c', c.id, [{ temperature: 24, humidity: 50 }]),
    ]);
    // c's reading was committed with the first list, before the lists queued behind it.
    expect(done.indexOf('c')).toBeLessThan(done.indexOf('b1'));
    expect(done.indexOf('c')).toBeLessThan(done.indexOf('a2'));
    // Each collar's uploads in the order they came; everything stored and answered.
    expect(done.indexOf('a1')).toBeLessThan(done.indexOf('a2'));
    expect(results.map((r) => r.length)).toEqual([1000, 1000, 1000, 1]);
    expect(await readingRows(t, a.id)).toHaveLength(2000);
    expect(await readingRows(t, b.id)).toHaveLength(1000);
    expect(await readingRows(t, c.id)).toHaveLength(1);
  });

  it('commits other collars’ readings between the slices of a large list, which is answered after its last', async () => {
    const a = await ownedCollar(t, admin, owner);
    const c = await ownedCollar(t, admin, owner);
    const ingest = t.app.container.ingest;
    const start = ingest.batchCount;
    const list = Array.from({ length: 1000 }, (_, i) => ({
      temperature: 22,
      humidity: 45,
      timestamp: Date.parse(ago(t, (2000 - i) * 1000)),
    }));
    const committedAt: Record<string, number> = {};
    let second: Promise<unknown> | undefined;
    const results = await Promise.all([
      ingest.submit(a.id, list).then((stored) => {
        committedAt.list = ingest.batchCount - start;
        return stored;
      }),
      ingest.submit(c.id, [{ temperature: 24, humidity: 50 }]).then((stored) => {
        committedAt.first = ingest.batchCount - start;
        // Sent while the list is midway: committed beside one of its later slices.
        second = ingest.submit(c.id, [{ temperature: 25, humidity: 50 }]).then((s) => {
          committedAt.second = ingest.batchCount - start;
          return s;
        });
        return stored;
      }),
    ]);
    await second;
    // The list in four commits of 250; c's readings in the first and in one before the last.
    expect(committedAt).toEqual({ first: 1, second: 2, list: 4 });
    expect(results[0]).toHaveLength(1000);
    expect(await readingRows(t, a.id)).toHaveLength(1000);
    expect(await readingRows(t, c.id)).toHaveLength(2);
  });

  it('stores a list sent in any order whole, and answers each reading in the order sent', async () => {
    const c = await ownedCollar(t, admin, owner);
    const times = Array.from({ length: 990 }, (_, i) => ago(t, (3000 - i * 3) * 1000));
    // Out of time order, one time sent twice, nine readings without a timestamp.
    const batch: { temperature: number; humidity: number; timestamp?: string }[] = times
      .map((timestamp, i) => ({ temperature: 20 + (i % 50) / 10, humidity: 40, timestamp }))
      .reverse();
    const original = batch[10]!;
    const repeat = { ...original, temperature: 30 };
    batch.splice(400, 0, repeat);
    for (let i = 0; i < 9; i++) batch.splice(i * 100, 0, { temperature: 25, humidity: 40 });
    expect(batch).toHaveLength(1000);
    const commits = t.app.container.ingest.batchCount;
    const res = await postAsCollar(t, c.device_id, c.device_key, batch);
    expect(res.statusCode, res.body).toBe(201);
    expect(t.app.container.ingest.batchCount - commits).toBe(4);
    const answered = res.json().vitals as { id: string; timestamp: string; temperature: number }[];
    expect(answered).toHaveLength(1000);
    for (const [i, sent] of batch.entries()) {
      if (sent.timestamp) expect(answered[i]!.timestamp).toBe(sent.timestamp);
      if (sent !== repeat) expect(answered[i]!.temperature).toBe(sent.temperature);
    }
    // The repeated time answers the reading first sent with it.
    expect(answered[batch.indexOf(repeat)]).toEqual(answered[batch.indexOf(original)]);
    const rows = await readingRows(t, c.id);
    expect(rows).toHaveLength(999);
    expect(new Set(answered.map((r) => r.id)).size).toBe(999);
    // The device shows the newest reading: one of those without a timestamp (now).
    const newest = rows.at(-1)!;
    expect(answered.some((r) => r.id === String(newest.id))).toBe(true);
    expect(batch[answered.findIndex((r) => r.id === String(newest.id))]!.timestamp).toBeUndefined();
  });

  it('makes an acknowledged reading readable at once', async () => {
    const c = await ownedCollar(t, admin, owner);
    const posted = (await postAsCollar(t, c.device_id, c.device_key, reading)).json().vitals;
    const latest = await t.app.inject({
      url: `/api/devices/${c.id}/vitals/latest`,
      headers: bearer(owner.token),
    });
    expect(latest.json().vitals).toEqual(posted);
  });

  it('updates the device: last seen, latest vitals by greatest timestamp, absent fields kept', async () => {
    const c = await ownedCollar(t, admin, owner);
    expect((await deviceRow(t, c.id))!.registration_status).toBe('assigned');
    await postAsCollar(t, c.device_id, c.device_key, {
      temperature: 22,
      humidity: 30,
      heart_rate: 90,
      activity_level: 20,
      battery: 70,
      timestamp: ago(t, 60_000),
    });
    let row = (await deviceRow(t, c.id))!;
    expect(row).toMatchObject({
      registration_status: 'active',
      status: 'active',
      temperature_celsius: 22,
      humidity_percent: 30,
      heart_rate: 90,
      activity_level: 20,
      battery_level: 70,
      vitals_status: 'SAFE',
      vitals_recorded_at: ago(t, 60_000).slice(0, 16) + row.vitals_recorded_at!.slice(16),
    });
    expect(Date.parse(row.last_seen!)).toBeGreaterThan(Date.parse(ago(t, 5_000)));
    // A newer reading without heart rate, activity or battery keeps the stored ones.
    await postAsCollar(t, c.device_id, c.device_key, {
      temperature: 23,
      humidity: 31,
      timestamp: ago(t, 30_000),
    });
    row = (await deviceRow(t, c.id))!;
    expect(row).toMatchObject({
      temperature_celsius: 23,
      heart_rate: 90,
      activity_level: 20,
      battery_level: 70,
    });
    // An older reading (a backlog) is stored but does not become the latest.
    await postAsCollar(t, c.device_id, c.device_key, {
      temperature: 35,
      humidity: 31,
      timestamp: ago(t, 90_000),
    });
    row = (await deviceRow(t, c.id))!;
    expect(row.temperature_celsius).toBe(23);
    expect(await readingRows(t, c.id)).toHaveLength(3);
  });

  it('writes the device from what it holds now: a value changed since is overwritten by the next reading', async () => {
    const c = await ownedCollar(t, admin, owner);
    const at = (ms: number) => ({ ...reading, heart_rate: 90, battery: 60, timestamp: ago(t, ms) });
    await postAsCollar(t, c.device_id, c.device_key, at(20_000));
    // Changed behind the server's back (an admin's tool, another instance).
    await t.app.container.db
      .updateTable('devices')
      .set({ temperature_celsius: 99, heart_rate: 1, battery_level: 2, vitals_status: 'CRITICAL' })
      .where('id', '=', c.id)
      .execute();
    // The same values as the first reading: each differs from what the row holds now.
    await postAsCollar(t, c.device_id, c.device_key, at(10_000));
    expect(await deviceRow(t, c.id)).toMatchObject({
      temperature_celsius: reading.temperature,
      heart_rate: 90,
      battery_level: 60,
      vitals_status: 'SAFE',
    });
  });

  it('answers a backlog uncompressed, even to a client that accepts gzip (the lean acknowledgement)', async () => {
    const c = await ownedCollar(t, admin, owner);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/devices/${c.device_id}/vitals`,
      headers: { authorization: `Device ${c.device_key}`, 'accept-encoding': 'gzip, br' },
      payload: Array.from({ length: 50 }, (_, i) => ({
        ...reading,
        timestamp: ago(t, (i + 1) * 1000),
      })),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.body.length).toBeGreaterThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json().vitals).toHaveLength(50);
  });

  it('brings an offline collar back to active, and leaves maintenance to the admin', async () => {
    const c = await ownedCollar(t, admin, owner);
    await t.app.container.db
      .updateTable('devices')
      .set({ status: 'offline' })
      .where('id', '=', c.id)
      .execute();
    await postAsCollar(t, c.device_id, c.device_key, reading);
    expect((await deviceRow(t, c.id))!.status).toBe('active');
    await t.app.container.db
      .updateTable('devices')
      .set({ status: 'maintenance' })
      .where('id', '=', c.id)
      .execute();
    await postAsCollar(t, c.device_id, c.device_key, { ...reading, timestamp: ago(t, -1000) });
    expect((await deviceRow(t, c.id))!.status).toBe('maintenance');
  });

  it('judges each reading by the owner’s thresholds with 1 °F hysteresis', async () => {
    const me = await seedUser(t);
    await t.app.inject({
      method: 'PUT',
      url: '/api/notifications/preferences',
      headers: bearer(me.token),
      payload: {
        email_notifications_enabled: true,
        temperature_threshold: 80,
        critical_temperature_threshold: 100,
        email_frequency: 'immediate',
      },
    });
    const c = await ownedCollar(t, admin, me);
    // Dry air keeps the heat index near the temperature.
    const f = [79, 80, 79.5, 79, 100, 99.5, 98.9, 78];
    const expected = [
      'SAFE',
      'WARNING',
      'WARNING',
      'SAFE',
      'CRITICAL',
      'CRITICAL',
      'WARNING',
      'SAFE',
    ];
    const statuses: string[] = [];
    for (const [i, tempF] of f.entries()) {
      const res = await postAsCollar(t, c.device_id, c.device_key, {
        temperature: fahrenheitToCelsius(tempF),
        humidity: 10,
        timestamp: ago(t, (100 - i) * 1000),
      });
      statuses.push(res.json().vitals.status);
    }
    expect(statuses).toEqual(expected);
    expect((await deviceRow(t, c.id))!.vitals_status).toBe('SAFE');
  });

  it('calls a humid heat DANGER by the heat index', async () => {
    const c = await ownedCollar(t, admin, owner);
    const res = await postAsCollar(t, c.device_id, c.device_key, {
      temperature: fahrenheitToCelsius(95),
      humidity: 60,
    });
    expect(res.json().vitals.status).toBe('DANGER');
  });
});

describe('POST vitals: readings without a timestamp, and backlogs beside new readings', () => {
  it('stores every reading sent without a timestamp, each answered with itself', async () => {
    const c = await ownedCollar(t, admin, owner);
    const res = await postAsCollar(t, c.device_id, c.device_key, [
      { temperature: 20, humidity: 40 },
      { temperature: 35, humidity: 90 },
      { temperature: 50, humidity: 40 },
    ]);
    expect(res.statusCode).toBe(201);
    expect(res.json().vitals.map((v: { temperature: number }) => v.temperature)).toEqual([
      20, 35, 50,
    ]);
    // Two posts that land in one commit are two readings too.
    const [a, b] = await Promise.all([
      postAsCollar(t, c.device_id, c.device_key, { temperature: 21, humidity: 40 }),
      postAsCollar(t, c.device_id, c.device_key, { temperature: 41, humidity: 40 }),
    ]);
    expect([a.json().vitals.temperature, b.json().vitals.temperature]).toEqual([21, 41]);
    expect((await readingRows(t, c.id)).map((r) => r.temperature).sort()).toEqual([
      20, 21, 35, 41, 50,
    ]);
  });

  it('keeps the hysteresis of the device’s latest level when a backlog arrives beside new readings', async () => {
    const c = await ownedCollar(t, admin, owner);
    await postAsCollar(t, c.device_id, c.device_key, {
      temperature: fahrenheitToCelsius(106),
      humidity: 10,
      timestamp: ago(t, 60_000),
    });
    expect((await deviceRow(t, c.id))!.vitals_status).toBe('CRITICAL');
    const res = await postAsCollar(t, c.device_id, c.device_key, [
      { temperature: fahrenheitToCelsius(70), humidity: 10, timestamp: ago(t, 120_000) },
      { temperature: fahrenheitToCelsius(104.5), humidity: 10, timestamp: ago(t, 30_000) },
    ]);
    expect(res.json().vitals.map((v: { status: string }) => v.status)).toEqual([
      'SAFE',
      'CRITICAL',
    ]);
    expect((await deviceRow(t, c.id))!.vitals_status).toBe('CRITICAL');
  });

  it('never leaves readings or vitals on a collar released while its readings are stored', async () => {
    for (let round = 0; round < 4; round++) {
      const c = await ownedCollar(t, admin, owner);
      const posts = Array.from({ length: 6 }, (_, i) =>
        postAsCollar(t, c.device_id, c.device_key, { ...reading, timestamp: ago(t, 10_000 - i) }),
      );
      const release = t.app.inject({
        method: 'DELETE',
        url: `/api/devices/${c.id}`,
        headers: bearer(owner.token),
      });
      await Promise.all([...posts, release]);
      const row = (await deviceRow(t, c.id))!;
      expect(row.user_id).toBeNull();
      expect(row.registration_status).toBe('unassigned');
      expect(row.temperature_celsius).toBeNull();
      expect(await readingRows(t, c.id)).toHaveLength(0);
    }
  });
});
