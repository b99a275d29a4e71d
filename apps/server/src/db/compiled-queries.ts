import { CompiledQuery, type Compilable, type QueryResult } from 'kysely';

interface Executes {
  executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>>;
}

/**
 * The SQL of hot-path queries, built and compiled by Kysely once per shape (the columns set,
 * the number of rows) and afterwards only given new values. Building and compiling a query
 * cost as much CPU as SQLite running it on the ingest path; the statement itself is cached
 * by the SQLite driver (and by PostgreSQL's planner) under the same text either way.
 *
 * `params` are the values in the order the compiled query binds them. The first run of a
 * shape checks that order against the query Kysely compiled from the same values, so a
 * builder whose binding order differs fails loudly in tests instead of writing one column's
 * value into another.
 */
export class CompiledQueries {
  private readonly sql = new Map<string, string>();

  constructor(private readonly capacity = 200) {}

  run<R>(
    ex: Executes,
    shape: string,
    build: () => Compilable<R>,
    params: readonly unknown[],
  ): Promise<QueryResult<R>> {
    let text = this.sql.get(shape);
    if (text === undefined) {
      const compiled = build().compile();
      const same =
        compiled.parameters.length === params.length &&
        compiled.parameters.every((p, i) => Object.is(p, params[i]));
      if (!same) throw new Error(`Compiled query "${shape}" binds its values in another order`);
      if (this.sql.size >= this.capacity) this.sql.clear();
      this.sql.set(shape, (text = compiled.sql));
    }
    return ex.executeQuery(CompiledQuery.raw(text, [...params]) as CompiledQuery<R>);
  }
}

/** The most rows or ids one compiled statement takes (see chunkSizes). */
const LARGEST_CHUNK = 256;

/**
 * The sizes `n` rows (or ids of an IN list) are cut into: powers of two up to 256, largest
 * first, so that a batch of any size runs as a few statements of at most nine shapes, each
 * compiled and prepared once.
 */
export function chunkSizes(n: number): number[] {
  const sizes: number[] = [];
  for (let left = n; left > 0; ) {
    let size = LARGEST_CHUNK;
    while (size > left) size >>= 1;
    sizes.push(size);
    left -= size;
  }
  return sizes;
}
