// Replays traces through a PawGuard server as an owner and a collar would (the admin
// pre-populates and registers a collar, the owner adds the pet and puts the collar on it, the
// collar posts its readings with its key, the owner reads the alerts), while the server's
// clock moves with the trace. The transport is handed in (`Api`), so the same steps run
// against an app in process (Fastify's inject) or over HTTP. Also the yardstick: what the
// owner's thresholds alone would have raised, by the shared rules.
import { randomInt } from 'node:crypto';
import {
  READINGS_BATCH_MAX,
  generateDeviceId,
  heatStep,
  vitalsRank,
  vitalsStatus,
  type Alert,
  type AlertLevel,
  type Thresholds,
  type VitalsStatus,
} from '@pawguard/shared';
import { MINUTE_MS, type DogProfile, type SimReading, type TraceMinute } from './life.js';
import { randomMac } from './provision.js';
import { DEFAULT_THRESHOLDS } from './vitals.js';

/** One API call: a signed-in user's (`token`) or a collar's (`deviceKey`). */
export interface ApiCall {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  token?: string;
  deviceKey?: string;
  body?: unknown;
}
export type Api = (call: ApiCall) => Promise<{ status: number; body: unknown }>;

/**
 * The server's clock, which the replay sets to each request's time. Sign in before the replay:
 * the server checks an access token's expiry against the machine's time, not this clock.
 */
export interface SettableClock {
  set(at: number): void;
}

async function call<T>(api: Api, c: ApiCall, expected: number[] = [200, 201]): Promise<T> {
  const res = await api(c);
  if (!expected.includes(res.status))
    throw new Error(`${c.method} ${c.url} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as T;
}

export interface Owner {
  token: string;
  userId: string;
}

export interface ReplayCollar {
  /** The device's id (UUID) and its printed Device ID with its key. */
  id: string;
  deviceId: string;
  deviceKey: string;
  dogId: string;
}

/**
 * A collar on a new pet of `owner` with the profile's pet sheet: pre-populated and registered
 * to the owner by the admin, put on the pet by the owner.
 */
export async function collarOnPet(
  api: Api,
  adminToken: string,
  owner: Owner,
  profile: DogProfile,
  name = profile.pet.name,
): Promise<ReplayCollar> {
  let device: { id: string; device_id: string; device_key: string } | undefined;
  for (let attempt = 0; !device; attempt++) {
    const res = await api({
      method: 'POST',
      url: '/api/admin/devices/pre-populate',
      token: adminToken,
      body: { devices: [{ device_id: generateDeviceId(randomInt), device_address: randomMac() }] },
    });
    // A Device ID already taken (409) is drawn again.
    if (res.status === 409 && attempt < 20) continue;
    if (res.status !== 201) throw new Error(`pre-populate answered ${res.status}`);
    device = (res.body as { devices: NonNullable<typeof device>[] }).devices[0]!;
  }
  await call(api, {
    method: 'POST',
    url: '/api/devices/register',
    token: adminToken,
    body: { device_id: device.device_id, user_id: owner.userId },
  });
  const { dog } = await call<{ dog: { id: string } }>(api, {
    method: 'POST',
    url: '/api/dogs',
    token: owner.token,
    body: { ...profile.pet, name },
  });
  await call(api, {
    method: 'PUT',
    url: `/api/devices/${device.id}`,
    token: owner.token,
    body: { device_name: `${name}'s collar`, dog_id: dog.id },
  });
  return { id: device.id, deviceId: device.device_id, deviceKey: device.device_key, dogId: dog.id };
}

/** A collar's readings to replay; those from `singleFrom` on go one a request, as they are taken. */
export interface ReplayItem {
  collar: ReplayCollar;
  readings: readonly SimReading[];
  singleFrom?: number;
}

/** The readings as the collar posts them (ISO timestamps). */
const wire = (r: SimReading) => ({ ...r, timestamp: new Date(r.timestamp).toISOString() });

/**
 * Posts every item's readings in time order across all items, the server's clock set to the
 * newest reading of each request before it is sent: a collar uploads what it took since its
 * last upload, at most `sliceMinutes` (≤ 1,000 readings) at a time, so each request is a
 * realistic backlog of a collar that was out of reach, never older than the server accepts.
 */
export async function replay(
  api: Api,
  clock: SettableClock,
  items: readonly ReplayItem[],
  options: {
    sliceMinutes?: number;
    /** Called with each single reading's stored form (the answer's `vitals`). */
    onSingle?: (collar: ReplayCollar, reading: SimReading, stored: StoredLevels) => void;
  } = {},
): Promise<{ requests: number; readings: number }> {
  const sliceMinutes = options.sliceMinutes ?? READINGS_BATCH_MAX;
  const posts: { at: number; collar: ReplayCollar; readings: SimReading[] }[] = [];
  const origin = Math.min(...items.map((i) => i.readings[0]?.timestamp ?? Infinity));
  for (const item of items) {
    let batch: SimReading[] = [];
    let slice = -1;
    const flush = () => {
      if (batch.length)
        posts.push({ at: batch.at(-1)!.timestamp, collar: item.collar, readings: batch });
      batch = [];
    };
    for (const r of item.readings) {
      if (item.singleFrom !== undefined && r.timestamp >= item.singleFrom) {
        flush();
        posts.push({ at: r.timestamp, collar: item.collar, readings: [r] });
        continue;
      }
      const s = Math.floor((r.timestamp - origin) / (sliceMinutes * MINUTE_MS));
      if (s !== slice) flush();
      slice = s;
      batch.push(r);
    }
    flush();
  }
  posts.sort((a, b) => a.at - b.at);
  let readings = 0;
  for (const p of posts) {
    // A few seconds after the newest reading: it has just been taken and sent.
    clock.set(p.at + 5000);
    const answer = await call<{ vitals: StoredLevels | StoredLevels[] }>(api, {
      method: 'POST',
      url: `/api/devices/${p.collar.deviceId}/vitals`,
      deviceKey: p.collar.deviceKey,
      body: p.readings.length === 1 ? wire(p.readings[0]!) : p.readings.map(wire),
    });
    if (p.readings.length === 1 && !Array.isArray(answer.vitals))
      options.onSingle?.(p.collar, p.readings[0]!, answer.vitals);
    readings += p.readings.length;
  }
  return { requests: posts.length, readings };
}

/**
 * What the server judged a stored reading: its status and the model's band (and, where the
 * server names them, the device's one level and the thresholds' own verdict).
 */
export interface StoredLevels {
  status?: string | null;
  risk_band?: string | null;
  vitals_status?: string | null;
  threshold_status?: string | null;
}

/** The level a reading put its collar at: the highest of the verdicts it carries. */
export const storedLevel = (r: StoredLevels): VitalsStatus =>
  [r.status, r.risk_band, r.vitals_status, r.threshold_status].reduce<VitalsStatus>(
    (h, l) => (l && levelRank(l) > levelRank(h) ? (l as VitalsStatus) : h),
    'SAFE',
  );

/** Every heat alert of a collar, oldest first (as its owner reads them, 100 a page). */
export async function heatAlerts(api: Api, token: string, collar: ReplayCollar): Promise<Alert[]> {
  const all: Alert[] = [];
  for (;;) {
    const page = await call<{ alerts: Alert[]; total: number }>(api, {
      method: 'GET',
      url: `/api/devices/${collar.id}/alerts?limit=100&offset=${all.length}`,
      token,
    });
    all.push(...page.alerts);
    if (page.alerts.length === 0 || all.length >= page.total) break;
  }
  return all
    .filter((a) => a.type === 'heat')
    .sort(
      (a, b) => Date.parse(a.reading_at ?? a.opened_at) - Date.parse(b.reading_at ?? b.opened_at),
    );
}

/** A heat alert as the thresholds alone would have raised it: reading times, highest level. */
export interface ThresholdAlert {
  openedAt: number;
  level: AlertLevel;
  resolvedAt: number | null;
}

/**
 * The heat alerts the owner's thresholds alone would have raised over the readings (time order):
 * each reading's status by the shared rule with its hysteresis, and the heat alert following it
 * (open above SAFE, escalate, resolve at SAFE), without the heat-risk model.
 */
export function thresholdAlerts(
  readings: readonly SimReading[],
  thresholds: Thresholds = DEFAULT_THRESHOLDS,
): ThresholdAlert[] {
  const out: ThresholdAlert[] = [];
  let previous: VitalsStatus | null = null;
  let open: ThresholdAlert | null = null;
  for (const r of readings) {
    const status: VitalsStatus = vitalsStatus(r, thresholds, previous);
    previous = status;
    const step = heatStep(open, status);
    if (step.kind === 'open') {
      open = { openedAt: r.timestamp, level: step.level, resolvedAt: null };
      out.push(open);
    } else if (step.kind === 'escalate') open!.level = step.to;
    else if (step.kind === 'resolve') {
      open!.resolvedAt = r.timestamp;
      open = null;
    }
  }
  return out;
}

/** What happened at a time: the trace's minute that holds it. */
export function minuteAt(minutes: readonly TraceMinute[], at: number): TraceMinute | undefined {
  if (minutes.length === 0) return undefined;
  const i = Math.floor((at - minutes[0]!.at) / MINUTE_MS);
  return minutes[i];
}

export const levelRank = (level: string | null | undefined) =>
  level ? vitalsRank(level as VitalsStatus) : 0;
