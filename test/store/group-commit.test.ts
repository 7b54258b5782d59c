/**
 * Transactions committed together: on SQLite the ones asked for at once share one transaction,
 * each in a savepoint, so one that throws takes back only its own writes; on PostgreSQL each is
 * its own. Either way a caller's promise settles after its writes are committed (or undone).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/store/database.js';
import { transactionsOf } from '../../src/store/group-commit.js';
import { provisionShared, type Provisioned } from '../support/backends.js';

describe.each(['sqlite', 'postgres'] as const)('%s', (kind) => {
  let db: Db;
  let dir: string;
  let shared: Provisioned | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
    if (kind === 'sqlite') db = await openDatabase(`sqlite:${join(dir, 'db.sqlite')}`);
    else {
      shared = await provisionShared();
      db = await openDatabase(shared.overrides['database.url'] as string);
    }
    await sql`create table grouped_rows (n integer primary key)`.execute(db);
  });
  afterAll(async () => {
    await db?.destroy();
    await shared?.release();
    rmSync(dir, { recursive: true, force: true });
  });

  const count = async () =>
    Number((await sql<{ n: number }>`select count(*) as n from grouped_rows`.execute(db)).rows[0]!.n);

  it('keeps the writes of each transaction that returned and none of one that threw', async () => {
    const transactions = transactionsOf(db);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, (_, n) =>
        transactions.run(async (trx) => {
          await sql`insert into grouped_rows (n) values (${n})`.execute(trx);
          await sql`insert into grouped_rows (n) values (${1000 + n})`.execute(trx);
          if (n % 7 === 3) throw new Error(`refused ${n}`);
          return n * 2;
        }),
      ),
    );
    outcomes.forEach((outcome, n) => {
      if (n % 7 === 3) expect(outcome).toEqual({ status: 'rejected', reason: new Error(`refused ${n}`) });
      else expect(outcome).toEqual({ status: 'fulfilled', value: n * 2 });
    });
    const kept = await sql<{ n: number }>`select n from grouped_rows order by n`.execute(db);
    const expected = Array.from({ length: 40 }, (_, n) => n).filter((n) => n % 7 !== 3);
    expect(kept.rows.map((r) => Number(r.n))).toEqual([...expected, ...expected.map((n) => 1000 + n)]);
  });

  it('answers only once the writes are visible to every reader', async () => {
    const before = await count();
    const transactions = transactionsOf(db);
    const seen = await Promise.all(
      Array.from({ length: 10 }, (_, n) =>
        transactions
          .run((trx) => sql`insert into grouped_rows (n) values (${5000 + n})`.execute(trx))
          .then(count),
      ),
    );
    // Each caller, once answered, finds its own row (and those committed with it) from outside.
    for (const rows of seen) expect(rows).toBeGreaterThan(before);
    expect(await count()).toBe(before + 10);
  });
});

describe('sqlite', () => {
  it('puts the transactions asked for at once in one batch, committed once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
    const file = join(dir, 'db.sqlite');
    const db = await openDatabase(`sqlite:${file}`);
    await sql`create table grouped_rows (n integer primary key)`.execute(db);
    // A second connection sees only what is committed.
    const outside = new SqliteDatabase(file, { readonly: true });
    const committed = () =>
      (outside.prepare('select count(*) as n from grouped_rows').get() as { n: number }).n;
    const transactions = transactionsOf(db);
    const seenOutside = await Promise.all(
      Array.from({ length: 5 }, (_, n) =>
        transactions.run(async (trx) => {
          await sql`insert into grouped_rows (n) values (${n})`.execute(trx);
          return committed();
        }),
      ),
    );
    // Separate transactions would have shown 0, 1, 2, 3, 4.
    expect(seenOutside).toEqual([0, 0, 0, 0, 0]);
    expect(committed()).toBe(5);
    outside.close();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
});
