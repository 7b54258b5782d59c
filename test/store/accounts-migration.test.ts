/**
 * Migration 0019 on a database of the schema before accounts, on SQLite and on PostgreSQL: every
 * token becomes an account of its own with the token's id, balance and ledger (a revoked token
 * whose name a live one took since gets `{name}-{id}`), open holds point at the account, and the
 * migrated token authenticates and spends its account's balance.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import SqliteDatabase from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrations/index.js';
import type { Database } from '../../src/store/tables.js';
import { hashOf, Tokens } from '../../src/accounts/tokens.js';
import { Credits } from '../../src/accounts/credits.js';
import { poolOn, provisionShared } from '../support/backends.js';
import { openDatabase, type Db } from '../../src/store/database.js';

const BEFORE = '0018_redemption_codes';

const token = (id: string, name: string, credits: number | null, revokedAt: number | null = null) => ({
  id,
  name,
  role: 'client',
  token_hash: hashOf(`secret-${id}`),
  operations: null,
  expires_at: null,
  credits,
  rate_per_second: null,
  max_concurrency: null,
  webhook_secret: 'whsec',
  created_at: 1_000,
  revoked_at: revokedAt,
  disabled_at: null,
  changed_at: null,
});

const entry = (id: string, tokenId: string, kind: string, delta: number, after: number) => ({
  id,
  token_id: tokenId,
  kind,
  delta,
  balance_after: after,
  note: null,
  actor: 'system',
  trace_id: null,
  created_at: 2_000,
});

/** Fills `old` at the schema before accounts and closes it; `open` opens it again, migrated. */
async function check(old: Kysely<Database>, open: () => Promise<Db>): Promise<void> {
  await fill(old);
  await old.destroy();
  const db = await open();
  try {
    await migrated(db);
  } finally {
    await db.destroy();
  }
}

async function fill(db: Kysely<Database>): Promise<void> {
  await migrate(db as Kysely<unknown>, BEFORE);
  await db
    .insertInto('tokens')
    .values([
      token('t-live', 'acme', 70),
      token('t-old', 'acme', 5, 1_500),
      token('t-free', 'free', null),
    ] as never)
    .execute();
  await db
    .insertInto('ledger')
    .values([
      entry('001', 't-live', 'topup', 100, 100),
      entry('002', 't-live', 'charge', -30, 70),
      entry('003', 't-old', 'topup', 5, 5),
    ] as never)
    .execute();
  await db
    .insertInto('holds')
    .values([{ trace_id: 'open-hold', token_id: 't-live', amount: 4, created_at: 3_000 }] as never)
    .execute();
}

async function migrated(db: Db): Promise<void> {
  const accounts = await db.selectFrom('accounts').selectAll().orderBy('id').execute();
  expect(accounts.map((a) => [a.id, a.name, a.credits === null ? null : Number(a.credits)])).toEqual([
    ['t-free', 'free', null],
    ['t-live', 'acme', 70],
    ['t-old', 'acme-t-old', 5],
  ]);
  const tokens = await db.selectFrom('tokens').select(['id', 'account_id']).orderBy('id').execute();
  expect(tokens.every((t) => t.account_id === t.id)).toBe(true);
  // Each account's entries still sum to its balance.
  const ledger = await db.selectFrom('ledger').selectAll().orderBy('id').execute();
  expect(ledger.map((e) => [e.account_id, e.token_id, Number(e.delta)])).toEqual([
    ['t-live', 't-live', 100],
    ['t-live', 't-live', -30],
    ['t-old', 't-old', 5],
  ]);
  const [hold] = await db.selectFrom('holds').selectAll().execute();
  expect(hold).toMatchObject({ account_id: 't-live', token_id: 't-live' });

  // The migrated token authenticates and spends its account.
  const live = await new Tokens(db).authenticate('Bearer secret-t-live');
  expect(live).toMatchObject({ accountId: 't-live', accountName: 'acme', unlimited: false, budgets: [] });
  const credits = new Credits(db, 'UTC');
  const reservation = await credits.reserve(live, 20, 'after-migration');
  await reservation.settle(20);
  expect(await new Tokens(db).balance('t-live')).toBe(50);
  // The hold left open before the upgrade is refunded to the account when it expires.
  expect(await credits.expire(0)).toBe(1);
  expect(await new Tokens(db).balance('t-live')).toBe(54);
  const sum = await db.selectFrom('ledger').select('delta').where('account_id', '=', 't-live').execute();
  expect(sum.reduce((total, e) => total + Number(e.delta), 0)).toBe(54);
}

describe('the accounts migration', () => {
  it('keeps every balance and ledger on SQLite', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'switchyard-accounts-')), 'old.db');
    const old = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SqliteDatabase(path) }) });
    await check(old, () => openDatabase(`sqlite:${path}`));
  });

  it('keeps every balance and ledger on PostgreSQL', async () => {
    const shared = await provisionShared();
    const url = shared.overrides['database.url'] as string;
    const old = new Kysely<Database>({ dialect: new PostgresDialect({ pool: poolOn(url) }) });
    try {
      await check(old, () => openDatabase(url));
    } finally {
      await shared.release();
    }
  });
});
