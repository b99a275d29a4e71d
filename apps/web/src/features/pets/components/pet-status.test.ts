import { describe, expect, it } from 'vitest';
import type { VitalsStatus } from '@pawguard/shared';
import { petStatus } from './pet-status';

const NOW = Date.parse('2025-07-01T12:00:00.000Z');
const PET = 'pet-1';
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const collar = (
  recordedMsAgo: number | null,
  status: VitalsStatus | null,
  dog_id: string | null = PET,
) => ({
  dog_id,
  vitals_recorded_at: recordedMsAgo === null ? null : ago(recordedMsAgo),
  vitals_status: status,
});

describe('the pet status badge rule (spec section 4)', () => {
  it('is Loading while the collars are not known yet', () => {
    expect(petStatus(PET, undefined, NOW)).toBe('loading');
  });

  it('is Disconnected without a collar or without any reading', () => {
    expect(petStatus(PET, [], NOW)).toBe('disconnected');
    expect(petStatus(PET, [collar(null, null)], NOW)).toBe('disconnected');
  });

  it("ignores another pet's collar", () => {
    expect(petStatus(PET, [collar(5_000, 'SAFE', 'other-pet')], NOW)).toBe('disconnected');
  });

  it('is Disconnected when the latest reading is 2 minutes old or more', () => {
    expect(petStatus(PET, [collar(120_000, 'SAFE')], NOW)).toBe('disconnected');
    expect(petStatus(PET, [collar(119_000, 'SAFE')], NOW)).toBe('safe');
  });

  it("is Safe when the server's status is SAFE, Danger for any other status", () => {
    expect(petStatus(PET, [collar(1_000, 'SAFE')], NOW)).toBe('safe');
    for (const status of ['WARNING', 'DANGER', 'CRITICAL'] as const)
      expect(petStatus(PET, [collar(1_000, status)], NOW)).toBe('danger');
  });

  it('uses the latest reading of all the collars on the pet', () => {
    expect(petStatus(PET, [collar(60_000, 'DANGER'), collar(10_000, 'SAFE')], NOW)).toBe('safe');
    expect(petStatus(PET, [collar(300_000, 'SAFE'), collar(10_000, 'WARNING')], NOW)).toBe(
      'danger',
    );
  });
});
