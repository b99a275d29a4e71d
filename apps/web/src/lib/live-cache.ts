import type { QueryClient } from '@tanstack/react-query';
import {
  HISTORY_RANGES,
  NOTIFICATIONS_BELL_SIZE,
  type Device,
  type DeviceVitalsPatch,
  type History,
  type HistoryBucket,
  type Notification,
  type Reading,
  type StreamEvent,
} from '@pawguard/shared';
import { getAllDevicesQueryOptions } from '@/lib/api/get-all-devices';
import { deviceQueryKey, deviceQueryRoot, getDeviceQueryOptions } from '@/lib/api/get-device';
import { getDeviceHistoryQueryOptions } from '@/lib/api/get-device-history';
import { getDevicesQueryOptions } from '@/lib/api/get-devices';
import { getLatestVitalsQueryOptions } from '@/lib/api/get-latest-vitals';
import { activityKeys } from '@/lib/api/get-activity';

/**
 * How live events land in the query cache: the same entries the screens read, so a screen
 * never knows whether a value came from a fetch or from the stream. Pure functions first
 * (unit-tested on their own), then the one place that writes them into a QueryClient.
 */

/** The list with the device's fields replaced by the patch; null when the list lacks it. */
export function patchDeviceList(
  list: readonly Device[],
  id: string,
  patch: DeviceVitalsPatch,
): Device[] | null {
  const index = list.findIndex((device) => device.id === id);
  if (index === -1) return null;
  const next = list.slice();
  next[index] = { ...list[index]!, ...patch };
  return next;
}

/** Every device a cached list holds, in either shape it takes; null when it is none. */
function cachedRows(cached: unknown): Device[] | null {
  if (Array.isArray(cached)) return cached as Device[];
  const paged = cached as PagedDevices;
  return paged && Array.isArray(paged.pages) ? paged.pages.flatMap((p) => p.rows) : null;
}

/** True when the cached list is complete: an owner's array, or every page of the fleet. */
function holdsEveryRow(cached: unknown): boolean {
  if (Array.isArray(cached)) return true;
  const rows = cachedRows(cached);
  return rows !== null && rows.length >= ((cached as PagedDevices).pages.at(-1)?.total ?? 0);
}

type PagedDevices = { pages: { rows: Device[]; total: number }[]; pageParams: unknown[] };

/**
 * A cached device list as either shape it takes: all of an owner's devices (an array), or
 * the pages of the admin's fleet loaded so far. Null when the device is not in it.
 */
export function patchCachedDevices(cached: unknown, id: string, patch: DeviceVitalsPatch): unknown {
  if (Array.isArray(cached)) return patchDeviceList(cached as Device[], id, patch);
  const paged = cached as PagedDevices;
  if (!paged || !Array.isArray(paged.pages)) return null;
  let found = false;
  const pages = paged.pages.map((page) => {
    const rows = patchDeviceList(page.rows, id, patch);
    if (!rows) return page;
    found = true;
    return { ...page, rows };
  });
  return found ? { ...paged, pages } : null;
}

const at = (iso: string) => Date.parse(iso);

/** The later of two readings by timestamp (the "latest" is the greatest timestamp). */
export function laterReading(current: Reading | null, next: Reading): Reading {
  if (current === null || at(next.timestamp) >= at(current.timestamp)) return next;
  return current;
}

type Stat = NonNullable<HistoryBucket['temperature']>;

function addToStat(stat: Stat | null, value: number | null, count: number): Stat | null {
  if (value === null) return stat;
  if (stat === null) return { min: value, avg: value, max: value };
  return {
    min: Math.min(stat.min, value),
    max: Math.max(stat.max, value),
    avg: (stat.avg * count + value) / (count + 1),
  };
}

function addToBucket(bucket: HistoryBucket, reading: Reading): HistoryBucket {
  const n = bucket.count;
  return {
    t: bucket.t,
    count: n + 1,
    temperature: addToStat(bucket.temperature, reading.temperature, n),
    humidity: addToStat(bucket.humidity, reading.humidity, n),
    heart_rate: addToStat(bucket.heart_rate, reading.heart_rate, n),
  };
}

/**
 * Folds one reading into a history answer: into the bucket whose time span holds it, or a
 * new bucket aligned with the existing ones; the window slides forward to the newest
 * reading and buckets that fall out of it are dropped. A reading older than the window is
 * ignored.
 */
export function foldReadingIntoHistory(history: History, reading: Reading): History {
  const time = at(reading.timestamp);
  const size = history.bucket_seconds * 1000;
  if (Number.isNaN(time) || !(size > 0)) return history;
  const to = Math.max(at(history.to), time);
  const from = to - HISTORY_RANGES[history.range];
  if (time < from) return history;

  const buckets = history.buckets.filter((bucket) => at(bucket.t) + size > from);
  const index = buckets.findIndex((bucket) => at(bucket.t) <= time && time < at(bucket.t) + size);
  if (index !== -1) {
    buckets[index] = addToBucket(buckets[index]!, reading);
  } else {
    const anchor = at(buckets[0]?.t ?? history.from);
    const start = anchor + Math.floor((time - anchor) / size) * size;
    const empty: HistoryBucket = {
      t: new Date(start).toISOString(),
      count: 0,
      temperature: null,
      humidity: null,
      heart_rate: null,
    };
    const position = buckets.findIndex((bucket) => at(bucket.t) > start);
    buckets.splice(position === -1 ? buckets.length : position, 0, addToBucket(empty, reading));
  }
  return {
    ...history,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    buckets,
  };
}

const listKeys = () => [getDevicesQueryOptions().queryKey, getAllDevicesQueryOptions().queryKey];

/**
 * Everything about devices refetches (on screen at once, the rest when next shown). With
 * `olderThan`, only what was fetched before that moment: what a gap in the stream may have
 * missed. A fetch already under way is left to finish.
 */
export function invalidateDeviceData(
  queryClient: QueryClient,
  { olderThan }: { olderThan?: number } = {},
): Promise<void> {
  const predicate =
    olderThan === undefined
      ? undefined
      : (query: { state: { dataUpdatedAt: number } }) =>
          query.state.dataUpdatedAt > 0 && query.state.dataUpdatedAt < olderThan;
  const keys = [...listKeys(), deviceQueryRoot];
  return Promise.all(
    keys.map((queryKey) =>
      queryClient.invalidateQueries({ queryKey, predicate }, { cancelRefetch: false }),
    ),
  ).then(() => undefined);
}

/** The dog a device is on, from the device lists and details in the cache; null if unknown. */
function dogOfDevice(queryClient: QueryClient, id: string): string | null {
  for (const queryKey of listKeys()) {
    const dog = cachedRows(queryClient.getQueryData(queryKey))?.find((d) => d.id === id)?.dog_id;
    if (dog) return dog;
  }
  return queryClient.getQueryData(getDeviceQueryOptions(id).queryKey)?.dog_id ?? null;
}

/** A dog's activity is asked again at most this often as its collar's readings arrive. */
export const ACTIVITY_NUDGE_MS = 15_000;
/** When each dog's activity was last asked for again, per cache (a sign-out starts afresh). */
const activityNudged = new WeakMap<QueryClient, Map<string, number>>();

/**
 * A reading of a dog's collar moves its activity today (the server folds completed minutes in
 * on the next call): its cards and dashboard ask again, at most every ACTIVITY_NUDGE_MS.
 */
function nudgeActivity(queryClient: QueryClient, deviceId: string, now = Date.now()): void {
  const dogId = dogOfDevice(queryClient, deviceId);
  let nudged = activityNudged.get(queryClient);
  if (!nudged) activityNudged.set(queryClient, (nudged = new Map()));
  if (!dogId || now - (nudged.get(dogId) ?? 0) < ACTIVITY_NUDGE_MS) return;
  nudged.set(dogId, now);
  // Its days only: the insights sum up whole past days and do not move with a reading.
  void queryClient.invalidateQueries(
    { queryKey: activityKeys.allDays(dogId) },
    { cancelRefetch: false },
  );
}

/** Writes one live event into the cache. */
export function applyStreamEvent(queryClient: QueryClient, event: StreamEvent): void {
  switch (event.type) {
    case 'reading': {
      const { device: id, reading, patch } = event;
      for (const queryKey of listKeys()) {
        const list = queryClient.getQueryData(queryKey);
        if (list === undefined) continue;
        const next = patchCachedDevices(list, id, patch);
        if (next) queryClient.setQueryData(queryKey, next);
        // A device a whole list does not hold yet (just assigned): fetch the list again. A
        // fleet loaded only in part simply does not show that device yet; a new device is
        // announced by its own `device` event.
        else if (holdsEveryRow(list))
          void queryClient.invalidateQueries({ queryKey, exact: true }, { cancelRefetch: false });
      }
      const detailKey = getDeviceQueryOptions(id).queryKey;
      const device = queryClient.getQueryData(detailKey);
      if (device) queryClient.setQueryData(detailKey, { ...device, ...patch });

      const latestKey = getLatestVitalsQueryOptions(id).queryKey;
      if (queryClient.getQueryState(latestKey)?.status === 'success') {
        const current = queryClient.getQueryData(latestKey) ?? null;
        queryClient.setQueryData(latestKey, laterReading(current, reading));
      }

      const historyKey = getDeviceHistoryQueryOptions(id, '1h').queryKey;
      const history = queryClient.getQueryData(historyKey);
      if (history) queryClient.setQueryData(historyKey, foldReadingIntoHistory(history, reading));
      nudgeActivity(queryClient, id);
      return;
    }
    case 'device': {
      // Assigned, moved, renamed, released or removed: what changed is not in the event.
      for (const queryKey of listKeys()) void queryClient.invalidateQueries({ queryKey });
      void queryClient.invalidateQueries({ queryKey: deviceQueryKey(event.device) });
      return;
    }
    case 'alert':
      // Opened, escalated, acknowledged or resolved: the alert lists and cards fetch again.
      void queryClient.invalidateQueries({ queryKey: ['alerts'] });
      // Acknowledged (decision 0037): its notifications were marked read, so the bell of every
      // tab counts and lists them afresh, not only the one that acknowledged.
      if (event.alert.acknowledged_at !== null)
        void queryClient.invalidateQueries({ queryKey: ['notifications'] });
      return;
    case 'notification': {
      // The bell counts it and lists it first, at once.
      const count = queryClient.getQueryData<{ count: number }>(['notifications', 'unread-count']);
      if (count)
        queryClient.setQueryData(['notifications', 'unread-count'], { count: count.count + 1 });
      else void queryClient.invalidateQueries({ queryKey: ['notifications', 'unread-count'] });
      const latest = queryClient.getQueryData<Notification[]>(['notifications', 'latest']);
      if (latest && !latest.some((n) => n.id === event.notification.id))
        queryClient.setQueryData(
          ['notifications', 'latest'],
          [event.notification, ...latest].slice(0, NOTIFICATIONS_BELL_SIZE),
        );
      return;
    }
    case 'resync':
      void invalidateDeviceData(queryClient);
      void queryClient.invalidateQueries({ queryKey: ['notifications'] });
      void queryClient.invalidateQueries({ queryKey: ['alerts'] });
      return;
  }
}
