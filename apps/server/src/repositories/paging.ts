import type { SelectQueryBuilder } from 'kysely';

/** Which rows of a list: at most `limit` (≤ 100) from `offset`. */
export interface PageRequest {
  limit: number;
  offset: number;
}

/** One page of a list and the size of the whole list, read with the same filters. */
export async function readPage<DB, TB extends keyof DB, O>(
  filtered: SelectQueryBuilder<DB, TB, object>,
  select: (q: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, O>,
  { limit, offset }: PageRequest,
): Promise<{ rows: O[]; total: number }> {
  const [rows, counted] = await Promise.all([
    select(filtered).limit(limit).offset(offset).execute(),
    filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow() as Promise<{
      n: number | string;
    }>,
  ]);
  return { rows: rows as O[], total: Number(counted.n) };
}
