import type {
  Alert,
  BacktestResponse,
  Device,
  DeviceVitalsPatch,
  Dog,
  History,
  HistoryRange,
  Reading,
} from '@pawguard/shared';

let seq = 0;
const uuid = () => `10000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`;

export function makePet(overrides: Partial<Dog> = {}): Dog {
  return {
    id: uuid(),
    user_id: '20000000-0000-4000-8000-000000000001',
    name: 'Biscuit',
    breed: 'Beagle',
    age: 3,
    weight: 22.5,
    medical_info: null,
    emergency_contact: null,
    sex: null,
    body_condition: null,
    health_conditions: [],
    created_at: '2025-06-02T10:00:00.000Z',
    updated_at: '2025-06-02T10:00:00.000Z',
    access: 'owner',
    owner_name: null,
    ...overrides,
  };
}

export function makeDevice(overrides: Partial<Device> = {}): Device {
  const n = ++seq;
  return {
    id: uuid(),
    device_id: `PET-${String(n).padStart(4, '0').slice(-4)}`,
    device_address: null,
    device_name: `Collar ${n}`,
    device_type: 'collar',
    status: 'inactive',
    registration_status: 'assigned',
    user_id: '20000000-0000-4000-8000-000000000001',
    dog_id: null,
    dog_name: null,
    owner_name: 'Riley Owner',
    firmware_version: null,
    battery_level: null,
    last_seen: null,
    created_at: '2025-06-03T10:00:00.000Z',
    updated_at: '2025-06-03T10:00:00.000Z',
    temperature_celsius: null,
    humidity_percent: null,
    heart_rate: null,
    activity_level: null,
    vitals_status: null,
    threshold_status: null,
    vitals_recorded_at: null,
    risk_band: null,
    risk_score: null,
    risk_reasons: [],
    collar_off: false,
    ...overrides,
  };
}

let readingSeq = 0;

/** A stored reading as the vitals, readings and stream answers carry it. */
export function makeReading(overrides: Partial<Reading> = {}): Reading {
  const at = overrides.timestamp ?? new Date().toISOString();
  return {
    id: `30000000-0000-4000-8000-${String(++readingSeq).padStart(12, '0')}`,
    device_id: 'PET-0001',
    timestamp: at,
    temperature: 25,
    humidity: 50,
    heart_rate: null,
    activity_level: null,
    battery: null,
    status: 'SAFE',
    // The thresholds' verdict: the level itself unless a test says the model raised it.
    threshold_status: overrides.threshold_status ?? overrides.status ?? 'SAFE',
    reported_status: null,
    location: null,
    received_at: at,
    risk_band: null,
    risk_score: null,
    risk_reasons: [],
    ...overrides,
  };
}

/** What a reading changes on its device, as the stream's reading event carries it. */
export function patchFor(reading: Reading, overrides: Partial<DeviceVitalsPatch> = {}) {
  return {
    status: 'active',
    registration_status: 'active',
    battery_level: reading.battery,
    last_seen: reading.received_at,
    temperature_celsius: reading.temperature,
    humidity_percent: reading.humidity,
    heart_rate: reading.heart_rate,
    activity_level: reading.activity_level,
    vitals_status: reading.status,
    threshold_status: reading.threshold_status,
    vitals_recorded_at: reading.timestamp,
    risk_band: reading.risk_band,
    risk_score: reading.risk_score,
    risk_reasons: reading.risk_reasons,
    collar_off: false,
    ...overrides,
  } satisfies DeviceVitalsPatch;
}

/** A history answer with the given buckets (°C, %, bpm averages; min and max equal). */
export function makeHistory(
  range: HistoryRange,
  buckets: {
    t: string;
    temperature?: number;
    humidity?: number;
    heart_rate?: number;
    count?: number;
  }[],
  overrides: Partial<History> = {},
): History {
  const stat = (v: number | undefined) => (v === undefined ? null : { min: v, avg: v, max: v });
  return {
    range,
    from: '2025-07-01T11:00:00.000Z',
    to: '2025-07-01T12:00:00.000Z',
    bucket_seconds: 60,
    thresholds: { warning: 85, critical: 105 },
    buckets: buckets.map((b) => ({
      t: b.t,
      count: b.count ?? 1,
      temperature: stat(b.temperature),
      humidity: stat(b.humidity),
      heart_rate: stat(b.heart_rate),
    })),
    ...overrides,
  };
}

/** A heat-risk backtest answer: by default a quiet week, the thresholds and the model agreeing. */
export function makeBacktest(overrides: Partial<BacktestResponse> = {}): BacktestResponse {
  return {
    days: 7,
    from: '2025-06-24T12:00:00.000Z',
    to: '2025-07-01T12:00:00.000Z',
    readings: 0,
    thresholds: { alerts: 0, minutes_elevated: 0, highest: 'SAFE' },
    model: { alerts: 0, minutes_elevated: 0, highest: 'SAFE' },
    model_only_alerts: 0,
    ...overrides,
  };
}

/** An open DANGER heat alert on Biscuit's collar; `device` fills in the collar it is on. */
export function makeAlert(
  overrides: Partial<Alert> = {},
  device?: Pick<Device, 'id' | 'device_id' | 'device_name'>,
): Alert {
  return {
    id: '40000000-0000-4000-8000-000000000001',
    device: device?.id ?? '10000000-0000-4000-8000-000000000001',
    device_id: device?.device_id ?? 'PET-BC01',
    device_name: device?.device_name ?? 'Biscuit collar',
    dog_id: null,
    dog_name: 'Biscuit',
    type: 'heat',
    level: 'DANGER',
    resolved: false,
    opened_at: '2025-07-01T11:55:00.000Z',
    reading_at: '2025-07-01T11:55:00.000Z',
    escalated_at: null,
    resolved_at: null,
    resolved_by: null,
    resolved_reading_at: null,
    peak_temperature_celsius: 39.5,
    peak_heat_index_f: 104,
    battery_level: null,
    reasons: [],
    acknowledged_at: null,
    acknowledged_by_name: null,
    ...overrides,
  };
}
