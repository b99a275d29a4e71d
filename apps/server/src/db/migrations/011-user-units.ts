import type { Kysely } from 'kysely';

// Migrations take Kysely<any>: they describe the schema as it was then, not as it is now.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // The owner's display units: which temperature unit comes first ('F' or 'C'; both are always
  // shown) and the unit of pets' weights ('lbs' or 'kg'; stored weights stay lbs). Null means
  // the browser's default (°F and lbs in the US, Liberia and Myanmar, else °C and kg).
  await db.schema.alterTable('users').addColumn('temperature_unit', 'text').execute();
  await db.schema.alterTable('users').addColumn('weight_unit', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('weight_unit').execute();
  await db.schema.alterTable('users').dropColumn('temperature_unit').execute();
}
