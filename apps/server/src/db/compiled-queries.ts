import { CompiledQuery, type Compilable, type QueryResult } from 'kysely';

interface Executes {
  executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>>;
}

/**
 * The SQL of hot-path queries, built and compiled by Kysely once per shape (the columns set,
 * the number of rows) and afterwards only given new values. Building and compiling a query
 * cost as much CPU as SQLite running it on the ingest path; SQLite's driver then finds the
 * prepared statement under the same text (node-postgres sends it unnamed, so PostgreSQL saves
 * only the building and compiling).
 *
 * `build(values)` makes the query from the values in the order they are given. On a shape's
 * first use it is built from placeholders that are all different, and Kysely must bind them
 * in that same order: a builder that binds in another order fails loudly there, whatever the
 * values of the call happen to be.
 */
export class CompiledQueries {
  private readonly sql = new Map<string, string>();

  constructor(private readonly capacity = 200) {}

  run<R>(
    ex: Executes,
    shape: string,
    build: (values: readonly unknown[]) => Compilable<R>,
    values: readonly unknown[],
  ): Promise<QueryResult<R>> {
    let text = this.sql.get(shape);
    if (text === undefined) {
      const placeholders = values.map((_, i) => `\u0000compiled-query-value-${i}`);
      const compiled = build(placeholders).compile();
      const same =
        compiled.parameters.length === placeholders.length &&
        compiled.parameters.every((p, i) => p === placeholders[i]);
      if (!same) throw new Error(`Compiled query "${shape}" binds its values in another order`);
      if (this.sql.size >= this.capacity) this.sql.clear();
      this.sql.set(shape, (text = compiled.sql));
    }
    return ex.executeQuery(CompiledQuery.raw(text, [...values]) as CompiledQuery<R>);
  }
}

/** The most rows or ids one compiled statement takes (see chunkSizes). */
const LARGEST_CHUNK = 256;

/**
 * The sizes `n` rows are cut into: powers of two up to 256, largest first, so that a batch of
 * any size runs as a few statements of at most nine shapes, each compiled and prepared once.
 */
export function chunkSizes(n: number): number[] {
  const sizes: number[] = [];
  for (let left = n; left > 0;) {
    let size = LARGEST_CHUNK;
    while (size > left) size >>= 1;
    sizes.push(size);
    left -= size;
  }
  return sizes;
}

/**
 * An IN list cut into chunks of 256 and a last one padded, by repeating its last id, to a
 * power of two: one statement for up to 256 ids, of at most nine shapes. A repeated id in an
 * IN list changes nothing the query answers, nor the order it locks rows in.
 */
export function inListChunks<T>(ids: readonly T[]): T[][] {
  const chunks: T[][] = [];
  for (let at = 0; at < ids.length; at += LARGEST_CHUNK) {
    const chunk = ids.slice(at, at + LARGEST_CHUNK);
    let size = 1;
    while (size < chunk.length) size <<= 1;
    while (chunk.length < size) chunk.push(chunk.at(-1)!);
    chunks.push(chunk);
  }
  return chunks;
}
