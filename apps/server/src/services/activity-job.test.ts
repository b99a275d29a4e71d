import { describe, expect, it } from 'vitest';
import { spansOf } from './activity-job.js';

const H = 3_600_000;

describe('spansOf', () => {
  it.each([
    { name: 'one hour', hours: [5], spans: [[5, 6]] },
    { name: 'hours in a row, in any order', hours: [7, 5, 6], spans: [[5, 8]] },
    { name: 'up to 3 hours apart in one span', hours: [1, 4], spans: [[1, 5]] },
    {
      name: 'further apart in two',
      hours: [1, 6],
      spans: [
        [1, 2],
        [6, 7],
      ],
    },
    { name: 'none', hours: [], spans: [] },
  ])('$name', ({ hours, spans }) => {
    expect(spansOf(hours.map((h) => h * H))).toEqual(
      spans.map(([from, to]) => ({ from: from! * H, to: to! * H })),
    );
  });
});
