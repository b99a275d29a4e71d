import { describe, expect, it } from 'vitest';
import { formatTotal, formatWindow, Meter } from './meter.js';

describe('the per-second meter', () => {
  it('counts a window, then starts a fresh one, keeping the totals', () => {
    const meter = new Meter();
    meter.sent();
    meter.sent();
    meter.sent();
    meter.acked('SAFE');
    meter.acked('CRITICAL');
    meter.failed('401 Invalid device key');
    const first = meter.take();
    expect(first).toMatchObject({ sent: 3, acked: 2, errors: 1 });
    expect(first.byStatus).toEqual({ SAFE: 1, WARNING: 0, DANGER: 0, CRITICAL: 1 });
    meter.sent();
    meter.acked('WARNING');
    expect(meter.take()).toMatchObject({ sent: 1, acked: 1, errors: 0 });
    expect(meter.total).toMatchObject({ sent: 4, acked: 3, errors: 1 });
  });

  it('words a second: rate, acknowledgements, errors, statuses and failures by kind', () => {
    const meter = new Meter();
    for (let i = 0; i < 10; i++) meter.sent();
    for (let i = 0; i < 8; i++) meter.acked(i < 6 ? 'SAFE' : 'WARNING');
    meter.failed('503 busy');
    meter.failed('503 busy');
    expect(formatWindow(meter.take(), 1, 0)).toBe(
      'sent 10/s  acked 8  errors 2  in flight 0  | SAFE 6 WARNING 2  | 2× 503 busy',
    );
  });

  it('sums up a run', () => {
    const meter = new Meter();
    meter.sent();
    meter.acked('DANGER');
    expect(formatTotal(meter.total, 2)).toBe(
      'Sent 1 readings in 2 s (0.5/s): 1 acknowledged, 0 failed.\nBy status: DANGER 1.',
    );
  });
});
