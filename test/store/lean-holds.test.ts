/**
 * Migration 0016: the holds of requests still under way when a database is upgraded are carried
 * over, the time index is gone, and on SQLite the table is keyed by the trace id alone (WITHOUT
 * ROWID); going back down restores the table as it was. On SQLite and PostgreSQL.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import SqliteDatabase from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrations/index.js';
import type { Database } from '../../src/store/tables.js';
import { poolOn, provisionShared } from '../support/backends.js';

const BEFORE = '0015_console_sessions';
const held = [
  { trace_id: 'trace-1', token_id: 'token-a', amount: 40, created_at: 1_000 },
  { trace_id: 'trace-2', token_id: 'token-b', amount: 7, created_at: 2_000 },
];

async function holdsOf(db: Kysely<Database>) {
  const rows = await db.selectFrom('holds').selectAll().orderBy('trace_id').execute();
  // The columns the holds had then; later migrations add their own.
  return rows.map((r) => ({
    trace_id: r.trace_id,
    token_id: r.token_id,
    amount: Number(r.amount),
    created_at: Number(r.created_at),
  }));
}

/** Carries two open holds up, checks `shape`, then goes back down and up again. */
async function carriesHolds(
  db: Kysely<Database>,
  shape: () => Promise<void>,
  shapeBefore: () => Promise<void>,
) {
  await migrate(db as Kysely<unknown>, BEFORE);
  await db
    .insertInto('holds')
    .values(held as never)
    .execute();
  await migrate(db as Kysely<unknown>);
  expect(await holdsOf(db)).toEqual(held);
  await shape();
  // A settlement still ends its hold by trace id, once.
  const ended = await db
    .deleteFrom('holds')
    .where('trace_id', '=', 'trace-1')
    .returning('trace_id')
    .execute();
  expect(ended).toEqual([{ trace_id: 'trace-1' }]);
  await migrate(db as Kysely<unknown>, BEFORE);
  expect(await holdsOf(db)).toEqual([held[1]]);
  await shapeBefore();
}

describe('holds after migration 0016', () => {
  it('on SQLite: kept, keyed by trace id without a rowid, no time index; and back', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'switchyard-holds-')), 'old.db');
    const sqlite = new SqliteDatabase(file);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    const tableSql = () =>
      String(
        sqlite.prepare("select sql from sqlite_master where type = 'table' and name = 'holds'").pluck().get(),
      );
    const indexes = () =>
      sqlite
        .prepare(
          "select name from sqlite_master where type = 'index' and tbl_name = 'holds' and sql is not null",
        )
        .pluck()
        .all();
    try {
      await carriesHolds(
        db,
        async () => {
          expect(tableSql()).toMatch(/without rowid/i);
          expect(indexes()).toEqual([]);
        },
        async () => {
          expect(tableSql()).not.toMatch(/without rowid/i);
          expect(indexes()).toEqual(['holds_time']);
        },
      );
    } finally {
      await db.destroy();
    }
  });

  it('on PostgreSQL: kept, no time index; and back', async () => {
    const shared = await provisionShared();
    const pool = poolOn(shared.overrides['database.url'] as string);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const indexes = async () =>
      (
        await sql<{
          indexname: string;
        }>`select indexname from pg_indexes where tablename = 'holds' and indexname <> 'holds_pkey' order by indexname`.execute(
          db,
        )
      ).rows.map((r) => r.indexname);
    try {
      await carriesHolds(
        db,
        async () => expect(await indexes()).toEqual([]),
        async () => expect(await indexes()).toEqual(['holds_time']),
      );
    } finally {
      await db.destroy();
      await shared.release();
    }
  });
});
