import { sql, type Kysely } from 'kysely';

// Migrations take Kysely<any>: they describe the schema as it was then, not as it is now.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('devices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // 'PET-XXXX', stored upper case; never changes after creation.
    .addColumn('device_id', 'text', (c) => c.notNull().unique())
    // AA:BB:CC:DD:EE:FF; null until known (a customer's fallback may not have it).
    .addColumn('device_address', 'text', (c) => c.unique())
    .addColumn('device_name', 'text', (c) => c.notNull())
    .addColumn('device_type', 'text', (c) =>
      c.notNull().check(sqlIn('device_type', ['collar', 'vest', 'harness', 'tracker'])),
    )
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sqlIn('status', ['active', 'inactive', 'maintenance', 'offline'])),
    )
    .addColumn('registration_status', 'text', (c) =>
      c
        .notNull()
        .check(sqlIn('registration_status', ['unregistered', 'unassigned', 'assigned', 'active'])),
    )
    // The services release collars before an owner or pet goes; SET NULL is the backstop.
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('dog_id', 'text', (c) => c.references('dogs.id').onDelete('set null'))
    .addColumn('firmware_version', 'text')
    .addColumn('battery_level', 'integer')
    .addColumn('last_seen', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    // sha256 of the device key (≥ 128 random bits); the key itself is never stored.
    .addColumn('device_key_hash', 'text', (c) => c.unique())
    .addColumn('temperature_celsius', 'double precision')
    .addColumn('humidity_percent', 'double precision')
    .addColumn('heart_rate', 'integer')
    .addColumn('activity_level', 'integer')
    .addColumn('vitals_status', 'text')
    .addColumn('vitals_recorded_at', 'text')
    .execute();
  await db.schema.createIndex('devices_user_id_idx').on('devices').column('user_id').execute();
  await db.schema.createIndex('devices_dog_id_idx').on('devices').column('dog_id').execute();
  await db.schema
    .createIndex('devices_registration_status_idx')
    .on('devices')
    .columns(['registration_status', 'created_at'])
    .execute();
}

function sqlIn(column: string, values: string[]) {
  return sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('devices').execute();
}
