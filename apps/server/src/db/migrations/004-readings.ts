import { PostgresAdapter, type Kysely } from 'kysely';

// Migrations take Kysely<any>: they describe the schema as it was then, not as it is now.
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('readings')
    // A sequence, not a UUID: readings are the one table that grows by thousands a second,
    // and an increasing key keeps every insert at the end of the index.
    .addColumn('id', pg ? 'bigint' : 'integer', (c) =>
      pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey(),
    )
    .addColumn('device_id', 'text', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    // When the collar took it and when the server stored it, epoch milliseconds.
    .addColumn('recorded_at', 'bigint', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('temperature', 'double precision', (c) => c.notNull())
    .addColumn('humidity', 'double precision', (c) => c.notNull())
    .addColumn('heart_rate', 'integer')
    .addColumn('activity_level', 'integer')
    .addColumn('battery', 'integer')
    // The server's status from the owner's thresholds, and the collar's own, as sent.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reported_status', 'text')
    .addColumn('lat', 'double precision')
    .addColumn('lon', 'double precision')
    .execute();
  // Serves every per-device query (newest first, time ranges, history) and makes a repeated
  // (device, timestamp) a no-op: ingest is idempotent.
  await db.schema
    .createIndex('readings_device_time_uq')
    .on('readings')
    .columns(['device_id', 'recorded_at'])
    .unique()
    .execute();
  // Retention prunes the oldest readings across all devices.
  await db.schema
    .createIndex('readings_recorded_at_idx')
    .on('readings')
    .column('recorded_at')
    .execute();

  // Single-use tickets for the live stream (the long-lived token never enters a URL). Kept in
  // the database so a ticket issued by one server instance is accepted by another.
  await db.schema
    .createTable('stream_tickets')
    .addColumn('ticket_hash', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) =>
      c.notNull().references('sessions.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema
    .createIndex('stream_tickets_expires_at_idx')
    .on('stream_tickets')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('stream_tickets').execute();
  await db.schema.dropTable('readings').execute();
}
