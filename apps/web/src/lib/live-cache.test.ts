import { describe, expect, it } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { makeAlert, makeDevice, makeHistory, makeReading, patchFor } from '@/testing/devices';
import { makeActivity } from '@/testing/activity';
import { activityKeys } from './api/get-activity';
import { getAllDevicesQueryOptions } from './api/get-all-devices';
import { getDeviceQueryOptions } from './api/get-device';
import { getDeviceHistoryQueryOptions } from './api/get-device-history';
import { getDevicesQueryOptions } from './api/get-devices';
import { getLatestVitalsQueryOptions } from './api/get-latest-vitals';
import {
  applyStreamEvent,
  foldReadingIntoHistory,
  laterReading,
  patchDeviceList,
} from './live-cache';

describe('patchDeviceList', () => {
  it("replaces the device's latest-vitals fields and leaves the others alone", () => {
    const a = makeDevice({ device_name: 'A' });
    const b = makeDevice({ device_name: 'B' });
    const reading = makeReading({ temperature: 31.4, humidity: 60 });
    const next = patchDeviceList([a, b], b.id, patchFor(reading));
    expect(next?.[0]).toBe(a);
    expect(next?.[1]).toMatchObject({
      device_name: 'B',
      temperature_celsius: 31.4,
      humidity_percent: 60,
    });
  });

  it('carries the heat risk of the reading into the device', () => {
    const device = makeDevice({ risk_band: 'SAFE', risk_score: 1, risk_reasons: [] });
    const reading = makeReading({
      risk_band: 'DANGER',
      risk_score: 6.2,
      risk_reasons: ['exercise for 25 minutes, about 4× the risk'],
    });
    expect(patchDeviceList([device], device.id, patchFor(reading))?.[0]).toMatchObject({
      risk_band: 'DANGER',
      risk_score: 6.2,
      risk_reasons: ['exercise for 25 minutes, about 4× the risk'],
    });
  });

  it('answers null for a device the list does not hold', () => {
    expect(patchDeviceList([makeDevice()], 'elsewhere', patchFor(makeReading()))).toBeNull();
  });
});

describe('laterReading', () => {
  it('keeps the reading with the greatest timestamp (a backlog upload is older)', () => {
    const newer = makeReading({ timestamp: '2025-07-01T12:00:00.000Z' });
    const older = makeReading({ timestamp: '2025-07-01T11:00:00.000Z' });
    expect(laterReading(newer, older)).toBe(newer);
    expect(laterReading(older, newer)).toBe(newer);
    expect(laterReading(null, older)).toBe(older);
  });
});

describe('foldReadingIntoHistory', () => {
  const history = makeHistory('1h', [
    { t: '2025-07-01T11:58:00.000Z', temperature: 20, humidity: 40, count: 1 },
    { t: '2025-07-01T11:59:00.000Z', temperature: 30, humidity: 50, heart_rate: 90, count: 3 },
  ]);

  it('adds a reading to the bucket whose minute holds it (min, weighted average, max)', () => {
    const next = foldReadingIntoHistory(
      history,
      makeReading({
        timestamp: '2025-07-01T11:59:30.000Z',
        temperature: 34,
        humidity: 50,
        heart_rate: 100,
      }),
    );
    expect(next.buckets).toHaveLength(2);
    expect(next.buckets[1]).toEqual({
      t: '2025-07-01T11:59:00.000Z',
      count: 4,
      temperature: { min: 30, avg: 31, max: 34 },
      humidity: { min: 50, avg: 50, max: 50 },
      heart_rate: { min: 90, avg: 92.5, max: 100 },
    });
  });

  it('opens a new bucket aligned with the others and slides the window forward', () => {
    const next = foldReadingIntoHistory(
      history,
      makeReading({ timestamp: '2025-07-01T12:02:10.000Z', temperature: 25 }),
    );
    expect(next.to).toBe('2025-07-01T12:02:10.000Z');
    expect(next.from).toBe('2025-07-01T11:02:10.000Z');
    expect(next.buckets.map((b) => b.t)).toEqual([
      '2025-07-01T11:58:00.000Z',
      '2025-07-01T11:59:00.000Z',
      '2025-07-01T12:02:00.000Z',
    ]);
    expect(next.buckets[2]?.heart_rate).toBeNull();
  });

  it('drops buckets that fall wholly out of the hour', () => {
    const next = foldReadingIntoHistory(
      history,
      makeReading({ timestamp: '2025-07-01T12:59:30.000Z', temperature: 25 }),
    );
    expect(next.buckets.map((b) => b.t)).toEqual([
      '2025-07-01T11:59:00.000Z',
      '2025-07-01T12:59:00.000Z',
    ]);
  });

  it('ignores a reading older than the window', () => {
    const old = makeReading({ timestamp: '2025-07-01T10:00:00.000Z' });
    expect(foldReadingIntoHistory(history, old)).toBe(history);
  });

  it('starts the first bucket of an empty hour from the window start', () => {
    const empty = makeHistory('1h', []);
    const next = foldReadingIntoHistory(
      empty,
      makeReading({ timestamp: '2025-07-01T11:30:45.000Z', temperature: 22 }),
    );
    expect(next.buckets).toHaveLength(1);
    expect(next.buckets[0]?.t).toBe('2025-07-01T11:30:00.000Z');
  });
});

describe('applyStreamEvent', () => {
  it('leaves a fleet loaded only in part alone when a reading is for a device past its pages', () => {
    const queryClient = createQueryClient();
    const key = getAllDevicesQueryOptions().queryKey;
    const loaded = { pages: [{ rows: [makeDevice()], total: 500 }], pageParams: [0] };
    queryClient.setQueryData(key, loaded);
    const other = makeDevice();
    applyStreamEvent(queryClient, {
      type: 'reading',
      device: other.id,
      reading: makeReading({ timestamp: '2025-07-01T11:59:40.000Z' }),
      patch: {
        status: 'active',
        registration_status: 'active',
        battery_level: null,
        last_seen: '2025-07-01T11:59:40.000Z',
        temperature_celsius: 30,
        humidity_percent: 40,
        heart_rate: null,
        activity_level: null,
        vitals_status: 'SAFE',
        threshold_status: 'SAFE',
        vitals_recorded_at: '2025-07-01T11:59:40.000Z',
        risk_band: 'SAFE',
        risk_score: 1.5,
        risk_reasons: [],
        collar_off: false,
      },
    });
    expect(queryClient.getQueryData(key)).toBe(loaded);
    expect(queryClient.getQueryState(key)?.isInvalidated).toBe(false);
  });

  function seeded() {
    const queryClient = createQueryClient();
    const device = makeDevice({ temperature_celsius: 20 });
    const reading = makeReading({ timestamp: '2025-07-01T11:59:40.000Z', temperature: 33.3 });
    queryClient.setQueryData(getDevicesQueryOptions().queryKey, [device]);
    queryClient.setQueryData(getAllDevicesQueryOptions().queryKey, {
      pages: [{ rows: [makeDevice(), device], total: 2 }],
      pageParams: [0],
    });
    queryClient.setQueryData(getDeviceQueryOptions(device.id).queryKey, device);
    queryClient.setQueryData(getLatestVitalsQueryOptions(device.id).queryKey, null);
    queryClient.setQueryData(
      getDeviceHistoryQueryOptions(device.id, '1h').queryKey,
      makeHistory('1h', [{ t: '2025-07-01T11:59:00.000Z', temperature: 30 }]),
    );
    queryClient.setQueryData(
      getDeviceHistoryQueryOptions(device.id, '24h').queryKey,
      makeHistory('24h', []),
    );
    return { queryClient, device, reading };
  }

  it("asks for the dog's activity again on its collar's reading, at most every 15 s, not its insights", () => {
    const { queryClient, reading } = seeded();
    const dogId = 'dog-on-the-walk';
    const device = makeDevice({ dog_id: dogId });
    queryClient.setQueryData(getDevicesQueryOptions().queryKey, [device]);
    const key = activityKeys.days(dogId, 7);
    const other = activityKeys.days('another-dog', 7);
    queryClient.setQueryData(key, makeActivity(dogId));
    queryClient.setQueryData(other, makeActivity('another-dog'));
    const insights = activityKeys.insights(dogId);
    queryClient.setQueryData(insights, { dog_id: dogId });
    const event = {
      type: 'reading' as const,
      device: device.id,
      reading,
      patch: patchFor(reading),
    };
    applyStreamEvent(queryClient, event);
    expect(queryClient.getQueryState(key)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(other)?.isInvalidated).toBe(false);
    // The week's insights do not move with a reading: not asked again.
    expect(queryClient.getQueryState(insights)?.isInvalidated).toBe(false);
    // Fetched again; the next reading within 15 s leaves it be.
    queryClient.setQueryData(key, makeActivity(dogId));
    applyStreamEvent(queryClient, event);
    expect(queryClient.getQueryState(key)?.isInvalidated).toBe(false);
  });

  it('writes a reading into the device lists, the device, its latest reading and its last hour', () => {
    const { queryClient, device, reading } = seeded();
    applyStreamEvent(queryClient, {
      type: 'reading',
      device: device.id,
      reading,
      patch: patchFor(reading),
    });
    expect(
      queryClient.getQueryData(getDevicesQueryOptions().queryKey)?.[0]?.temperature_celsius,
    ).toBe(33.3);
    const fleet = queryClient.getQueryData(getAllDevicesQueryOptions().queryKey) as {
      pages: { rows: { temperature_celsius: number | null }[] }[];
    };
    expect(fleet.pages[0]!.rows[1]!.temperature_celsius).toBe(33.3);
    expect(
      queryClient.getQueryData(getDeviceQueryOptions(device.id).queryKey)?.temperature_celsius,
    ).toBe(33.3);
    expect(queryClient.getQueryData(getLatestVitalsQueryOptions(device.id).queryKey)).toEqual(
      reading,
    );
    const hour = queryClient.getQueryData(getDeviceHistoryQueryOptions(device.id, '1h').queryKey);
    expect(hour?.buckets[0]?.count).toBe(2);
    // Only the last hour is live; longer ranges are fetched when shown.
    expect(
      queryClient.getQueryData(getDeviceHistoryQueryOptions(device.id, '24h').queryKey)?.buckets,
    ).toEqual([]);
  });

  it('fetches a list again when it lacks the device (just assigned)', () => {
    const { queryClient, reading } = seeded();
    applyStreamEvent(queryClient, {
      type: 'reading',
      device: 'another-device',
      reading,
      patch: patchFor(reading),
    });
    expect(queryClient.getQueryState(getDevicesQueryOptions().queryKey)?.isInvalidated).toBe(true);
  });

  it('creates nothing for queries no screen has asked for', () => {
    const queryClient = createQueryClient();
    const reading = makeReading();
    applyStreamEvent(queryClient, {
      type: 'reading',
      device: 'd1',
      reading,
      patch: patchFor(reading),
    });
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
  });

  it('marks the lists and that device stale on a device event', () => {
    const { queryClient, device } = seeded();
    applyStreamEvent(queryClient, { type: 'device', device: device.id, change: 'updated' });
    expect(queryClient.getQueryState(getDevicesQueryOptions().queryKey)?.isInvalidated).toBe(true);
    expect(
      queryClient.getQueryState(getDeviceQueryOptions(device.id).queryKey)?.isInvalidated,
    ).toBe(true);
  });

  it('has the bell count afresh when an alert was acknowledged (its notifications were read)', () => {
    const queryClient = createQueryClient();
    const unread = ['notifications', 'unread-count'];
    const latest = ['notifications', 'latest'];
    queryClient.setQueryData(unread, { count: 2 });
    queryClient.setQueryData(latest, []);
    applyStreamEvent(queryClient, { type: 'alert', alert: makeAlert() });
    expect(queryClient.getQueryState(unread)?.isInvalidated).toBe(false);
    applyStreamEvent(queryClient, {
      type: 'alert',
      alert: makeAlert({ acknowledged_at: '2025-07-01T12:00:00.000Z' }),
    });
    expect(queryClient.getQueryState(unread)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(latest)?.isInvalidated).toBe(true);
  });

  it('marks every device query stale on resync', () => {
    const { queryClient, device } = seeded();
    applyStreamEvent(queryClient, { type: 'resync' });
    const stale = queryClient
      .getQueryCache()
      .getAll()
      .filter((q) => q.state.isInvalidated);
    expect(stale).toHaveLength(6);
    expect(
      queryClient.getQueryState(getDeviceHistoryQueryOptions(device.id, '24h').queryKey)
        ?.isInvalidated,
    ).toBe(true);
  });
});
