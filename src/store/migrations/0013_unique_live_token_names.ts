/**
 * A live token's name is unique, by an index, so that two nodes creating one name at once
 * cannot both succeed. Live tokens that already share a name keep it on the oldest; the
 * others are renamed `{name}-{first 8 characters of their id}`, followed by `-2`, `-3`, …
 * where a live token already has that name (or another renamed one took it).
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    const { rows } = await sql<{ id: string; name: string }>`
      select id, name from tokens where revoked_at is null order by created_at, id`.execute(db);
    const taken = new Set(rows.map((r) => r.name));
    const kept = new Set<string>();
    for (const { id, name } of rows) {
      if (!kept.has(name)) {
        kept.add(name);
        continue;
      }
      const base = `${name}-${id.slice(0, 8)}`;
      let renamed = base;
      for (let n = 2; taken.has(renamed); n += 1) renamed = `${base}-${n}`;
      taken.add(renamed);
      await sql`update tokens set name = ${renamed} where id = ${id}`.execute(db);
    }
    await db.schema
      .createIndex('tokens_live_name')
      .on('tokens')
      .column('name')
      .unique()
      .where(sql.ref('revoked_at'), 'is', null)
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('tokens_live_name').execute();
  },
};
