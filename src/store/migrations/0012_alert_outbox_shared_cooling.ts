/**
 * The operator's alerts go through the callbacks' outbox (`kind` tells them apart), so that a
 * restart loses none; a channel's cooldown is kept beside its other states, so that every node
 * holds it.
 */
import { type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('deliveries')
      .addColumn('kind', 'text', (c) => c.notNull().defaultTo('callback'))
      .execute();
    await db.schema.alterTable('channel_states').addColumn('cooling_until', 'bigint').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('deliveries').dropColumn('kind').execute();
    await db.schema.alterTable('channel_states').dropColumn('cooling_until').execute();
  },
};
