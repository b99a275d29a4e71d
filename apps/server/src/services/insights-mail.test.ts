import { NOT_A_DIAGNOSIS, zonedTimeToUtc } from '@pawguard/shared';
import { describe, expect, it } from 'vitest';
import { weekDue } from './activity-service.js';
import { InsightsMail, weeklyInsightsMail } from './insights-mail.js';

describe('weekDue', () => {
  const ny = (day: number, hour: number) => zonedTimeToUtc('America/New_York', 2027, 3, day, hour);
  it.each([
    ['Monday 07:59', ny(22, 7) + 59 * 60_000, null],
    ['Monday 08:00', ny(22, 8), '2027-03-22'],
    ['Sunday 23:00', ny(28, 23), '2027-03-22'],
    ['the next Monday 08:00', ny(29, 8), '2027-03-29'],
  ])('in New York, %s: %s', (_, at, week) => {
    expect(weekDue(at, 'America/New_York')).toBe(week);
  });
});

describe('weeklyInsightsMail', () => {
  it('says each dog’s insights and flags with the note, keyed by owner and week', () => {
    const m = weeklyInsightsMail({
      userId: 'u1',
      week: '2027-03-22',
      to: 'dana@example.com',
      ownerName: 'Dana <b>',
      publicUrl: 'https://pawguard.example',
      dogs: [
        {
          dog_id: 'd1',
          dog_name: 'Biscuit',
          from: '2027-03-15',
          to: '2027-03-21',
          insights: [{ kind: 'goal', text: 'Goal met on 5 of 7 days.', numbers: {} }],
          flags: [
            {
              kind: 'activity_down',
              text: 'Activity has been 35 % below usual for 3 days.',
              evidence: {},
              note: NOT_A_DIAGNOSIS,
            },
          ],
        },
      ],
    });
    expect(m.idempotencyKey).toBe('weekly-insights:u1:2027-03-22');
    expect(m.subject).toBe("Biscuit's week on PawGuard");
    expect(m.text).toContain('- Goal met on 5 of 7 days.');
    expect(m.text).toContain(NOT_A_DIAGNOSIS);
    expect(m.html).toContain('Dana &lt;b&gt;');
  });
});

describe('InsightsMail', () => {
  it("queues the owners after one whose dog's insights fail, and logs that one", async () => {
    const owner = (id: string) => ({
      id,
      email: `${id}@example.com`,
      name: id,
      time_zone: 'UTC',
      last_week: null,
    });
    const queued: string[] = [];
    const mailed: string[] = [];
    const errors: unknown[] = [];
    const trx = {};
    const mail = new InsightsMail({
      db: { transaction: () => ({ execute: (fn: (t: object) => unknown) => fn(trx) }) },
      activity: {
        weeklyRecipients: async () => [owner('ann'), owner('bob')],
        dogsOf: async (id: string) => [{ id: `${id}-dog` }],
        markWeekMailed: async (id: string) => void mailed.push(id),
      },
      service: {
        insightsFor: async (dogId: string) => {
          if (dogId === 'ann-dog') throw new Error('unreadable');
          return {
            dog_id: dogId,
            dog_name: 'Max',
            from: '2027-03-15',
            to: '2027-03-21',
            insights: [],
            flags: [],
          };
        },
      },
      outbox: { enqueue: async (m: { to: string }) => void queued.push(m.to) },
      clock: { now: () => new Date(Date.UTC(2027, 2, 22, 9)) }, // a Monday, 09:00 UTC
      log: { error: (o: unknown) => void errors.push(o) },
      publicUrl: 'http://localhost:3000',
      mailWorker: { kick: () => {} },
    } as unknown as ConstructorParameters<typeof InsightsMail>[0]);
    expect(await mail.run()).toBe(1);
    expect(queued).toEqual(['bob@example.com']);
    expect(mailed).toEqual(['bob']); // ann's week stays due: tried again on the next pass
    expect(errors).toEqual([expect.objectContaining({ user: 'ann' })]);
  });
});
