// The ingest path's compiled statements (CompiledQueries), run against the real database with
// batches that span several chunks and shapes.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashDeviceKey } from '../../src/services/devices/device-credentials.js';
import { createTestApp, seedUser, type SeededUser, type TestApp } from '../helpers/app.js';
import { ownedCollar } from '../helpers/devices.js';
import { readingRows } from '../helpers/readings.js';

let t: TestApp;
let admin: SeededUser;
let owner: SeededUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await seedUser(t, { role: 'admin' });
  owner = await seedUser(t);
});
afterAll(() => t.close());

describe('a batch’s device read', () => {
  it('finds each stored device once, in id order, however many ids and chunks the batch has', async () => {
    const collars = await Promise.all([1, 2, 3].map(() => ownedCollar(t, admin, owner)));
    const known = collars.map((c) => c.id);
    const devices = t.app.container.repos.devices;
    for (const others of [0, 2, 300, 600]) {
      const ids = [...known, ...Array.from({ length: others }, () => randomUUID())].sort();
      const rows = await t.app.container.db
        .transaction()
        .execute((trx) => devices.ingestStates(ids, trx, t.dbHandle.dialect === 'postgres'));
      expect(rows.map((r) => r.id)).toEqual([...known].sort());
      expect(rows.every((r) => r.user_id === owner.id)).toBe(true);
    }
  });
});

describe('a batch’s readings insert', () => {
  it('stores rows that leave out different columns, each with its own values', async () => {
    const c = await ownedCollar(t, admin, owner);
    const base = { device_uuid: c.id, received_at: Date.now(), humidity: 40, status: 'SAFE' };
    const rows = Array.from({ length: 7 }, (_, i) => ({
      ...base,
      recorded_at: 1_700_000_000_000 + i * 1000,
      temperature: 20 + i,
      // Only some rows carry a place; the first does not.
      ...(i % 3 === 1 ? { lat: 51.5, lon: -0.1 } : {}),
    }));
    const inserted = await t.app.container.db
      .transaction()
      .execute((trx) => t.app.container.repos.readings.insertNew(rows, trx));
    expect(inserted).toHaveLength(7);
    const stored = await readingRows(t, c.id);
    expect(stored.map((r) => [r.temperature, r.lat, r.lon])).toEqual(
      rows.map((r, i) => [20 + i, 'lat' in r ? 51.5 : null, 'lon' in r ? -0.1 : null]),
    );
  });
});

describe('device keys', () => {
  it('hash to the sha256 the stored keys were made with', () => {
    // Fixed value: every key already stored was hashed this way.
    expect(hashDeviceKey('pawguard-collar-key')).toBe(
      '732ed4b102fce2ecdd5e428a7786741909bd02cc034c8db91163495a6017c919',
    );
  });
});
