/**
 * A live token's name is unique by the database's own index, on SQLite and on PostgreSQL: many
 * creations of one name at once give one token and conflicts naming the field; a revoked token's
 * name is free again; a database from before the index keeps its tokens, the oldest of each
 * shared name keeping it and the others renamed.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import SqliteDatabase from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrations/index.js';
import type { Database } from '../../src/store/tables.js';
import { Tokens } from '../../src/accounts/tokens.js';
import { poolOn, provisionShared } from '../support/backends.js';

const row = (id: string, name: string, createdAt: number, revokedAt: number | null = null) => ({
  id,
  name,
  role: 'client' as const,
  token_hash: `hash-${id}`,
  operations: null,
  expires_at: null,
  credits: null,
  rate_per_second: null,
  max_concurrency: null,
  webhook_secret: 'whsec',
  created_at: createdAt,
  revoked_at: revokedAt,
  disabled_at: null,
  changed_at: null,
});

async function check(db: Kysely<Database>): Promise<void> {
  await migrate(db as Kysely<unknown>, '0012_alert_outbox_shared_cooling');
  await db
    .insertInto('tokens')
    .values([
      row('aaaaaaaa-1', 'acme', 2),
      row('bbbbbbbb-2', 'acme', 1),
      row('cccccccc-3', 'acme', 3, 10),
      row('dddddddd-4', 'solo', 1),
      // Names the renaming would give: taken already by a live token, or by each other.
      row('eeeeeeee-5', 'solo-ffffffff', 1),
      row('ffffffff-6', 'solo', 2),
      row('ffffffff-7', 'solo', 3),
    ] as never)
    .execute();
  await migrate(db as Kysely<unknown>);
  const names = await db.selectFrom('tokens').select(['id', 'name']).orderBy('id').execute();
  expect(names.map((r) => [r.id, r.name])).toEqual([
    ['aaaaaaaa-1', 'acme-aaaaaaaa'],
    ['bbbbbbbb-2', 'acme'],
    ['cccccccc-3', 'acme'],
    ['dddddddd-4', 'solo'],
    ['eeeeeeee-5', 'solo-ffffffff'],
    ['ffffffff-6', 'solo-ffffffff-2'],
    ['ffffffff-7', 'solo-ffffffff-3'],
  ]);

  const tokens = new Tokens(db);
  const tries = await Promise.allSettled(
    Array.from({ length: 8 }, () => tokens.create({ name: 'race', credits: 10 })),
  );
  expect(tries.filter((t) => t.status === 'fulfilled')).toHaveLength(1);
  for (const t of tries.filter((t) => t.status === 'rejected'))
    expect((t as PromiseRejectedResult).reason).toMatchObject({
      code: 'conflict',
      message: 'name: a live token is already called race',
    });
  // The losers left nothing behind: one token, one opening entry.
  const race = await db.selectFrom('tokens').select('id').where('name', '=', 'race').execute();
  expect(race).toHaveLength(1);
  const entries = await db.selectFrom('ledger').select('id').where('token_id', '=', race[0]!.id).execute();
  expect(entries).toHaveLength(1);

  await tokens.revoke('race');
  await expect(tokens.create({ name: 'race' })).resolves.toMatchObject({ token: { name: 'race' } });
}

describe('live token names', () => {
  it('are unique on SQLite', async () => {
    const sqlite = new SqliteDatabase(join(mkdtempSync(join(tmpdir(), 'switchyard-names-')), 'old.db'));
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    try {
      await check(db);
    } finally {
      await db.destroy();
    }
  });

  it('are unique on PostgreSQL', async () => {
    const shared = await provisionShared();
    const pool = poolOn(shared.overrides['database.url'] as string);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    try {
      await check(db);
    } finally {
      await db.destroy();
      await shared.release();
    }
  });
});
