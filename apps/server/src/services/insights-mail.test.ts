import { NOT_A_DIAGNOSIS, zonedTimeToUtc } from '@pawguard/shared';
import { describe, expect, it } from 'vitest';
import { weekDue } from './activity-service.js';
import { weeklyInsightsMail } from './insights-mail.js';

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
