import type { Migration } from 'kysely';
import * as m001 from './001-foundation.js';

/**
 * Every migration, in order. Listed here (not read from disk) so the bundled server carries
 * them. Later work appends its own: '002-…', '003-…'.
 */
export const migrations: Record<string, Migration> = {
  '001-foundation': m001,
};
