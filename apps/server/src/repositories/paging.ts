import type { SelectQueryBuilder } from 'kysely';
import type { CompiledQueries } from '../db/compiled-queries.js';

/** What runs a compiled query: the database or a transaction. */
type Executes = Parameters<CompiledQueries['run']>[0];

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

/**
 * readPage for a list every screen asks for (an owner's pets, their collars): both queries
 * built and compiled once per `shape` and afterwards only given new values (see
 * CompiledQueries). `filtered` builds the list's filter from `filterValues` (placeholders on
 * the first call), in the order given.
 */
export async function readPageCompiled<DB, TB extends keyof DB, O>(
  compiled: CompiledQueries,
  ex: Executes,
  shape: string,
  filtered: (values: readonly unknown[]) => SelectQueryBuilder<DB, TB, object>,
  select: (q: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, O>,
  filterValues: readonly unknown[],
  { limit, offset }: PageRequest,
): Promise<{ rows: O[]; total: number }> {
  const n = filterValues.length;
  const [rows, counted] = await Promise.all([
    compiled.run<O>(
      ex,
      `${shape} page`,
      (v) =>
        select(filtered(v))
          .limit(v[n] as number)
          .offset(v[n + 1] as number),
      [...filterValues, limit, offset],
    ),
    compiled.run<{ n: number | string }>(
      ex,
      `${shape} count`,
      (v) => filtered(v).select((eb) => eb.fn.countAll<number>().as('n')),
      filterValues,
    ),
  ]);
  return { rows: rows.rows, total: Number(counted.rows[0]?.n ?? 0) };
}
