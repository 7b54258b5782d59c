/**
 * Retention on SQLite and PostgreSQL: usage is rolled up before its raw rows go, recent days are
 * computed again (a task's row changes at its end), grouped usage answers the same after the
 * prune as before it, rows younger than the retention and the ledger stay, ended tasks past it
 * go with their deliveries, and live tasks stay whatever their age.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/store/database.js';
import { prune, rollUp } from '../../src/watchers/retention.js';
import { usageReport } from '../../src/admin/usage-report.js';
import { DAY_MS, rolledThrough } from '../../src/accounts/usage-days.js';
import { provision, type Backend, BACKENDS, type Provisioned } from '../support/backends.js';

const names = async (ids: string[]) => new Map(ids.map((id) => [id, `name-${id}`]));

describe.each(BACKENDS)('%s', (backend: Backend) => {
  let db: Db;
  let provisioned: Provisioned;
  const now = Date.UTC(2026, 10, 26, 12);

  beforeAll(async () => {
    provisioned = await provision(backend);
    const url =
      (provisioned.overrides['database.url'] as string | undefined) ??
      `sqlite:${join(mkdtempSync(join(tmpdir(), 'switchyard-retention-')), 'db.sqlite')}`;
    db = await openDatabase(url);
    // 120 days of requests, two tokens, two operations, a failure every fifth.
    const rows = [];
    for (let day = 0; day < 120; day++)
      for (let i = 0; i < 10; i++) {
        const at = now - day * DAY_MS - i * 60_000;
        rows.push({
          id: `${String(at).padStart(15, '0')}${day}-${i}`,
          token_id: i % 2 ? 'a' : 'b',
          operation: i % 3 ? '/serp/web' : '/clip/videos',
          model: i % 3 ? null : 'clip-v1',
          action: null,
          credits: i % 5 === 0 ? 0 : i,
          status: i % 5 === 0 ? 502 : 200,
          latency_ms: 10 + i * 7 + day,
          trace_id: `t-${day}-${i}`,
          created_at: at,
        });
      }
    for (let i = 0; i < rows.length; i += 200)
      await db
        .insertInto('usage')
        .values(rows.slice(i, i + 200))
        .execute();
    await db
      .insertInto('ledger')
      .values({
        id: 'old-entry',
        account_id: 'a',
        token_id: 'a',
        kind: 'topup',
        delta: 5,
        balance_after: 5,
        note: null,
        actor: 'ops',
        trace_id: null,
        created_at: now - 200 * DAY_MS,
      })
      .execute();
    const task = (id: string, state: string, finishedAt: number | null) => ({
      id,
      token_id: 'a',
      family: 'clip',
      operation: '/clip/videos',
      trace_id: `trace-${id}`,
      request: '{}',
      response: null,
      state,
      credits: 0,
      callback_url: null,
      callback_state: null,
      callback_last_status: null,
      created_at: now - 100 * DAY_MS,
      started_at: null,
      finished_at: finishedAt,
      updated_at: null,
      model: null,
      action: null,
      input: null,
      progress: null,
      progress_fraction: null,
      progress_stage: null,
      error: null,
      deadline_at: null,
      idempotency_key: null,
      request_hash: null,
      credits_state: null,
    });
    await db
      .insertInto('tasks')
      .values([
        task('old-ended', 'succeeded', now - 95 * DAY_MS),
        task('old-live', 'running', null),
        task('recent', 'failed', now - DAY_MS),
      ])
      .execute();
    await db
      .insertInto('deliveries')
      .values({
        id: 'msg-old',
        task_id: 'old-ended',
        token_id: 'a',
        url: 'http://x',
        body: '{}',
        state: 'delivered',
        next_at: 0,
        lease_until: null,
        last_status: 200,
        last_error: null,
        created_at: 0,
        delivered_at: 0,
      })
      .execute();
  });
  afterAll(async () => {
    await db?.destroy();
    await provisioned?.release();
  });

  it('rolls up ended days, prunes only what is rolled up and old, and answers the same usage', async () => {
    const query = { groupBy: ['token', 'operation', 'model', 'day'] as const };
    const total = { groupBy: ['token', 'operation'] as const };
    const before = await usageReport(db, { groupBy: [...query.groupBy] }, names);
    const totalsBefore = await usageReport(db, { groupBy: [...total.groupBy] }, names);
    expect(before.length).toBeGreaterThan(400);

    // Every day from the first, today up to a minute ago; run again, it finds nothing to do.
    expect(await rollUp(db, 2, now)).toBe(120);
    expect(await rolledThrough(db)).toBe(now - 60_000);
    expect(await rollUp(db, 2, now)).toBe(0);
    expect(await usageReport(db, { groupBy: [...query.groupBy] }, names)).toEqual(before);

    // A task's row kept its credits after the rollup: the next one, computing the recent days
    // again, counts them.
    const yesterday = `t-1-1`;
    await db.updateTable('usage').set({ credits: 101 }).where('trace_id', '=', yesterday).execute();
    expect(await rollUp(db, 2, now + 600_000)).toBe(3);
    const totalsAfter = await usageReport(db, { groupBy: [...total.groupBy] }, names);
    const sum = (rows: { credits: number }[]) => rows.reduce((s, r) => s + r.credits, 0);
    expect(sum(totalsAfter) - sum(totalsBefore)).toBe(100);
    const refreshed = await usageReport(db, { groupBy: [...query.groupBy] }, names);

    const pruned = await prune(db, 90, 2, now);
    // Days 91 to 119 back whole, and 9 of day 90's ten (the first is exactly 90 days old).
    expect(pruned).toEqual({ usage: 29 * 10 + 9, tasks: 1 });
    expect(await usageReport(db, { groupBy: [...query.groupBy] }, names)).toEqual(refreshed);
    expect(await usageReport(db, { groupBy: [...total.groupBy] }, names)).toEqual(totalsAfter);
    const { count } = await db
      .selectFrom('usage')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(1200 - pruned.usage);
    expect(
      await db.selectFrom('ledger').select('id').where('id', '=', 'old-entry').executeTakeFirst(),
    ).toBeDefined();
    const tasks = (await db.selectFrom('tasks').select('id').execute()).map((t) => t.id).sort();
    expect(tasks).toEqual(['old-live', 'recent']);
    expect(await db.selectFrom('deliveries').selectAll().execute()).toEqual([]);
  });
});
