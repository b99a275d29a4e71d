import { describe, expect, it } from 'vitest';
import type { ParsedReading, Reading } from '@pawguard/shared';
import { CommitQueue, SLICE, type Job, type JobResults } from './commit-queue.js';

/** A queue whose commits only record what they held and answer each reading by its time. */
function recordingQueue(fail?: (job: Job, commit: number) => Error | null) {
  const commits: Job[][] = [];
  const queue = new CommitQueue({
    commit: async (jobs) => {
      commits.push(jobs);
      const results: JobResults = new Map();
      for (const job of jobs)
        results.set(
          job,
          fail?.(job, commits.length) ??
            job.readings.map(
              (r) => ({ id: String(r.timestamp ?? 'now'), temperature: r.temperature }) as Reading,
            ),
        );
      return results;
    },
  });
  return { queue, commits };
}

const list = (n: number, from = 0): ParsedReading[] =>
  Array.from({ length: n }, (_, i) => ({ temperature: i, humidity: 40, timestamp: from + i }));

describe('CommitQueue', () => {
  it('commits a list of 1,000 in four slices of 250, oldest first, another collar’s reading beside its first', async () => {
    const { queue, commits } = recordingQueue();
    const sent = list(1000).reverse();
    const [stored] = await Promise.all([
      queue.submit('a', sent, 9000),
      queue.submit('b', list(1, 5000), 10),
    ]);
    expect(commits.map((c) => c.map((j) => `${j.deviceUuid}:${j.readings.length}`))).toEqual([
      ['a:250', 'b:1'],
      ['a:250'],
      ['a:250'],
      ['a:250'],
    ]);
    expect(commits[0]![0]!.readings[0]!.timestamp).toBe(0);
    expect(SLICE).toBe(250);
    // Answered in the order sent; the account charged once, for the whole upload.
    expect(stored!.map((r) => r.id)).toEqual(sent.map((r) => String(r.timestamp)));
    expect(commits.flat().map((j) => j.charge)).toEqual([
      { readings: 1000, bytes: 9000 },
      { readings: 1, bytes: 10 },
      null,
      null,
      null,
    ]);
  });

  it('keeps a collar’s later upload behind every slice of its earlier list', async () => {
    const { queue, commits } = recordingQueue();
    await Promise.all([queue.submit('a', list(600), 0), queue.submit('a', list(1, 9000), 0)]);
    // At the earliest beside the list's last slice, after it in the same transaction.
    expect(commits.map((c) => c.map((j) => j.readings.length))).toEqual([[250], [250], [100, 1]]);
  });

  it('answers a time sent twice with the first reading sent with it', async () => {
    const { queue, commits } = recordingQueue();
    const sent = list(400);
    sent.push({ temperature: 99, humidity: 40, timestamp: 7 });
    const stored = await queue.submit('a', sent, 0);
    expect(commits.flat().reduce((n, j) => n + j.readings.length, 0)).toBe(400);
    expect(stored).toHaveLength(401);
    expect(stored[400]).toBe(stored[7]);
  });

  it('fails a list whose slice fails, drops its other slices, and goes on with the others', async () => {
    const { queue, commits } = recordingQueue((job, commit) =>
      job.deviceUuid === 'a' && commit === 2 ? new Error('refused') : null,
    );
    const results = await Promise.allSettled([
      queue.submit('a', list(1000), 0),
      queue.submit('b', list(1), 0),
      queue.submit('c', list(300), 0),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(commits.map((c) => c.map((j) => `${j.deviceUuid}:${j.readings.length}`))).toEqual([
      ['a:250', 'b:1'],
      ['a:250'],
      ['c:250'],
      ['c:50'],
    ]);
    await queue.drain();
  });
});
