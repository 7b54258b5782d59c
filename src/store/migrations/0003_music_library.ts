/** Migration 0003: music library. */
import { sql, type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('songs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('token_id', 'text', (c) => c.notNull())
      .addColumn('task_id', 'text', (c) => c.notNull())
      .addColumn('parent_id', 'text')
      .addColumn('continue_at', 'double precision')
      .addColumn('duration', 'double precision', (c) => c.notNull())
      .addColumn('item', 'text', (c) => c.notNull())
      .addColumn('sound', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('songs_token').on('songs').columns(['token_id', 'created_at']).execute();
    await db.schema
      .createTable('personas')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('token_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('audio_id', 'text', (c) => c.notNull())
      .addColumn('vox_audio_id', 'text')
      .addColumn('voice', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['personas', 'songs']) await sql`drop table ${sql.table(table)}`.execute(db);
  },
};
