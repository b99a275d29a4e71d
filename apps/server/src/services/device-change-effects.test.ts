import { describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { DeviceChangeEffects } from './device-change-effects.js';
import { LocalEventBus, type BusItem } from './event-bus.js';
import type { DeviceKeyCache } from './device-key-cache.js';
import type { IngestBudget } from './ingest-budget.js';
import type { MqttEndpoint } from './mqtt-endpoint.js';
import type { KeptChartAnswers } from './readings-service.js';

/** What the effects drop, as calls: `keys invalidate c1`, `answers forget *`, … */
function setUp(budget?: Partial<IngestBudget>) {
  const calls: string[] = [];
  const record =
    (what: string) =>
    (id?: string): void => {
      calls.push(`${what} ${id ?? '*'}`);
    };
  const bus = new LocalEventBus();
  const published: BusItem[] = [];
  bus.subscribe((m) => published.push(m));
  const log = { error: vi.fn() };
  const effects = new DeviceChangeEffects({
    keys: { invalidate: record('keys invalidate'), clear: record('keys clear') } as DeviceKeyCache,
    budget: (budget ?? { forgetCollar: record('budget forget') }) as IngestBudget,
    mqtt: { disconnectDevice: record('mqtt disconnect') } as MqttEndpoint,
    answers: { forget: record('answers forget') } as KeptChartAnswers,
    bus,
    log: log as unknown as FastifyBaseLogger,
  });
  return { effects, bus, calls, published, log };
}

describe('what a committed change to a device drops', () => {
  it('a key that changed: everything kept about the collar, here and again when the bus brings it back', () => {
    const { effects, calls, published } = setUp();
    effects.credentialsChanged({
      id: 'c1',
      device_id: 'PET-1',
      reason: 'released',
      owner_id: 'u1',
    });
    const once = [
      'keys invalidate c1',
      'budget forget c1',
      'answers forget c1',
      'mqtt disconnect c1',
    ];
    expect(calls).toEqual([...once, ...once]);
    expect(published).toEqual([
      {
        audience: ['u1'],
        event: { type: 'device', device: 'c1', change: 'removed' },
        credentials: true,
      },
    ]);
  });

  it('a rotated key refetches the collar as updated, for nobody when it has no owner', () => {
    const { effects, published } = setUp();
    effects.credentialsChanged([
      { id: 'c2', device_id: 'PET-2', reason: 'rotated', owner_id: null },
    ]);
    expect(published).toEqual([
      {
        audience: [],
        event: { type: 'device', device: 'c2', change: 'updated' },
        credentials: true,
      },
    ]);
  });

  it("another instance's change, heard on the bus, drops the same", () => {
    const { bus, calls } = setUp();
    bus.publish([
      {
        audience: [],
        event: { type: 'device', device: 'c3', change: 'removed' },
        credentials: true,
      },
    ]);
    expect(calls).toEqual([
      'keys invalidate c3',
      'budget forget c3',
      'answers forget c3',
      'mqtt disconnect c3',
    ]);
  });

  it('a device changed otherwise drops only its budget account; its events alone drop nothing', () => {
    const { effects, bus, calls, published } = setUp();
    effects.deviceUpdated('c4', 'u1', null, 'u1', 'u2');
    expect(calls).toEqual(['budget forget c4']);
    expect(published).toEqual([
      { audience: ['u1', 'u2'], event: { type: 'device', device: 'c4', change: 'updated' } },
    ]);
    calls.length = 0;
    bus.publish([{ audience: [], event: { type: 'device', device: 'c4', change: 'updated' } }]);
    bus.publish([{ access: { users: ['u1'] } }]);
    expect(calls).toEqual([]);
  });

  it('a resync (events may have been missed) drops what is kept about every collar', () => {
    const { bus, calls } = setUp();
    bus.publish([{ audience: [], event: { type: 'resync' } }]);
    expect(calls).toEqual(['keys clear *', 'budget forget *', 'answers forget *']);
  });

  it('one step that throws is logged; the others still run and nothing reaches the caller', () => {
    const broken = new Error('cache bug');
    const { effects, calls, published, log } = setUp({
      forgetCollar: () => {
        throw broken;
      },
    });
    expect(() =>
      effects.credentialsChanged({ id: 'c5', device_id: 'PET-5', reason: 'removed' }),
    ).not.toThrow();
    expect(calls).toContain('mqtt disconnect c5');
    expect(published).toHaveLength(1);
    expect(log.error).toHaveBeenCalledWith({ err: broken }, expect.any(String));
  });
});
