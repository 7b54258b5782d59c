/**
 * Queries compiled once and run with new values, on SQLite and on PostgreSQL at once in one
 * process (each dialect compiles its own): every run sees its own values, a value used twice
 * takes both places, constants stay, and an insert of a row shaped otherwise than the first is
 * refused rather than written with columns missing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/store/database.js';
import { preparedInsert, preparedQuery } from '../../src/store/prepared-query.js';
import { provisionShared, type Provisioned } from '../support/backends.js';

// One of each, shared by both databases, as the modules that use them share theirs.
const insertDelivery = preparedInsert('deliveries');
/** Moves `amount` between next_at and attempts, only on pending rows of one kind. */
const shift = preparedQuery<
  { id: string; amount: number },
  { id: string; next_at: number; attempts: number }
>((db, slot) =>
  db
    .updateTable('deliveries')
    .set({ next_at: sql`next_at + ${slot('amount')}`, attempts: sql`attempts - ${slot('amount')}` })
    .where('id', '=', slot('id'))
    .where('state', '=', 'pending')
    .where('kind', 'in', ['callback', 'alert'])
    .returning(['id', 'next_at', 'attempts']),
);

const row = (id: string, state = 'pending') => ({
  id,
  kind: 'callback' as const,
  task_id: `task-${id}`,
  token_id: 'token',
  url: 'https://example.com/hook',
  body: `{"id":"${id}"}`,
  state: state as 'pending',
  next_at: 1000,
  lease_until: null,
  last_status: null,
  last_error: null,
  created_at: 1,
  delivered_at: null,
});

const databases: { kind: string; db: Db }[] = [];
let dir: string;
let shared: Provisioned;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'prepared-query-'));
  shared = await provisionShared();
  databases.push({ kind: 'sqlite', db: await openDatabase(`sqlite:${join(dir, 'db.sqlite')}`) });
  databases.push({ kind: 'postgres', db: await openDatabase(shared.overrides['database.url'] as string) });
});
afterAll(async () => {
  for (const { db } of databases) await db.destroy();
  await shared?.release();
  rmSync(dir, { recursive: true, force: true });
});

describe('prepared queries', () => {
  it('run with each call’s values on both dialects, alternating', async () => {
    for (let round = 0; round < 3; round += 1) {
      for (const { kind, db } of databases) {
        const id = `${kind}-${round}`;
        await insertDelivery(db, row(id));
        const [moved] = await shift(db, { id, amount: 10 + round });
        expect(moved).toEqual({ id, next_at: 1010 + round, attempts: -10 - round });
        const stored = await db
          .selectFrom('deliveries')
          .selectAll()
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        expect({
          ...stored,
          next_at: Number(stored.next_at),
          created_at: Number(stored.created_at),
        }).toMatchObject({
          ...row(id),
          next_at: 1010 + round,
          attempts: -10 - round,
        });
      }
    }
  });

  it('keep the constants compiled in', async () => {
    for (const { kind, db } of databases) {
      await insertDelivery(db, row(`${kind}-sent`, 'delivered'));
      // The state = 'pending' condition holds whatever the values: a delivered row is left alone.
      expect(await shift(db, { id: `${kind}-sent`, amount: 5 })).toEqual([]);
    }
  });

  it('refuse an insert of a row with other columns than the first', async () => {
    const { url: _url, ...missing } = row('short');
    // As many columns as the first row, one of them another.
    const renamed = { ...missing, target: 'https://example.com/hook' };
    for (const { db } of databases) {
      await expect(insertDelivery(db, missing as never)).rejects.toThrow(/other columns than the first/);
      await expect(insertDelivery(db, renamed as never)).rejects.toThrow(/other columns than the first/);
    }
  });
});
