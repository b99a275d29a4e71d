import type { Kysely } from 'kysely';

// Migrations take Kysely<any>: they describe the schema as it was then, not as it is now.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  // The heat-risk model (docs/heat-risk.md): its judgement of each reading and of each
  // device's present, the small state it keeps per collar between readings, the reasons an
  // alert was raised for, and the optional profile fields it reads.
  for (const table of ['readings', 'devices']) {
    await db.schema.alterTable(table).addColumn('risk_band', 'text').execute();
    await db.schema.alterTable(table).addColumn('risk_score', 'real').execute();
    // JSON: a list of plain-words reasons.
    await db.schema.alterTable(table).addColumn('risk_reasons', 'text').execute();
  }
  await db.schema.alterTable('devices').addColumn('risk_state', 'text').execute();
  await db.schema.alterTable('alerts').addColumn('reasons', 'text').execute();
  await db.schema.alterTable('dogs').addColumn('sex', 'text').execute();
  await db.schema.alterTable('dogs').addColumn('body_condition', 'integer').execute();
  // JSON: a list of 'airway' | 'breathing' | 'heart'.
  await db.schema.alterTable('dogs').addColumn('health_conditions', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['sex', 'body_condition', 'health_conditions'])
    await db.schema.alterTable('dogs').dropColumn(column).execute();
  await db.schema.alterTable('alerts').dropColumn('reasons').execute();
  await db.schema.alterTable('devices').dropColumn('risk_state').execute();
  for (const table of ['readings', 'devices'])
    for (const column of ['risk_band', 'risk_score', 'risk_reasons'])
      await db.schema.alterTable(table).dropColumn(column).execute();
}
