/**
 * Retention: usage rows (the request log) and ended tasks are kept `retention.days`; the ledger
 * and the audit are kept for ever. Before raw usage rows go, each ended day is rolled up into
 * usage_daily (per token, operation and model, with a latency histogram), so grouped usage is
 * read from a few rows per day and stays the same after the prune. A day is rolled up once it
 * ended a day ago: late writes to its rows (a task's credits set at its end, a batch flushed
 * after midnight) land before that. Rows are only ever pruned from days already rolled up.
 */
import { sql } from 'kysely';
import type { Db } from '../store/database.js';
import { DAY_MS, dayOf, rawParts, ROLLED_THROUGH, rolledThrough } from './usage-report.js';
import { TERMINAL } from '../tasks/states.js';

/** Rows deleted per statement, so that a prune never holds the write lock for long. */
const BATCH = 5000;

/** Rolls up every day that ended over a day before `now`; answers how many days it rolled up. */
export async function rollUp(db: Db, now = Date.now()): Promise<number> {
  const target = dayOf(now - DAY_MS);
  let through = await rolledThrough(db);
  if (through === 0) {
    const first = await db
      .selectFrom('usage')
      .select(sql<number>`min(created_at)`.as('first'))
      .executeTakeFirst();
    if (first?.first === null || first?.first === undefined) return 0;
    through = dayOf(Number(first.first));
  }
  let days = 0;
  for (let day = through; day < target; day += DAY_MS) {
    const parts = await rawParts(db, { from: day, to: day + DAY_MS });
    const rolled = await db.transaction().execute(async (trx) => {
      // Only the node that moves the marker from `day` writes the day: nodes never roll it twice.
      await trx
        .insertInto('markers')
        .values({ name: ROLLED_THROUGH, value: day })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const moved = await trx
        .updateTable('markers')
        .set({ value: day + DAY_MS })
        .where('name', '=', ROLLED_THROUGH)
        .where('value', '=', day)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) return false;
      for (let i = 0; i < parts.length; i += 500) {
        await trx
          .insertInto('usage_daily')
          .values(
            parts.slice(i, i + 500).map((p) => ({
              day: p.day,
              token_id: p.token_id,
              operation: p.operation,
              model: p.model,
              requests: p.requests,
              succeeded: p.succeeded,
              failed: p.failed,
              credits: p.credits,
              latency: JSON.stringify(p.latency),
            })),
          )
          .execute();
      }
      return true;
    });
    if (!rolled) break;
    days += 1;
  }
  return days;
}

/** Deletes what is older than `retentionDays`; answers how many usage rows and tasks went. */
export async function prune(
  db: Db,
  retentionDays: number,
  now = Date.now(),
): Promise<{ usage: number; tasks: number }> {
  if (retentionDays <= 0) return { usage: 0, tasks: 0 };
  const before = Math.min(now - retentionDays * DAY_MS, await rolledThrough(db));
  let usage = 0;
  for (;;) {
    const ids = db.selectFrom('usage').select('id').where('created_at', '<', before).limit(BATCH);
    const deleted = Number(
      (await db.deleteFrom('usage').where('id', 'in', ids).executeTakeFirst()).numDeletedRows,
    );
    usage += deleted;
    if (deleted < BATCH) break;
  }
  const ended = now - retentionDays * DAY_MS;
  let tasks = 0;
  for (;;) {
    const ids = await db
      .selectFrom('tasks')
      .select('id')
      .where('state', 'in', TERMINAL)
      .where('finished_at', '<', ended)
      .limit(BATCH)
      .execute();
    if (ids.length === 0) break;
    const list = ids.map((r) => r.id);
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('deliveries').where('task_id', 'in', list).execute();
      await trx.deleteFrom('tasks').where('id', 'in', list).execute();
    });
    tasks += list.length;
    if (list.length < BATCH) break;
  }
  return { usage, tasks };
}

const HOUR = 3_600_000;

/** Rolls up and prunes now and then hourly, on the nodes that run workers; answers the stop. */
export function startRetention(
  db: Db,
  retentionDays: number,
  onDone: (result: { days: number; usage: number; tasks: number }) => void,
  onError: (error: unknown) => void,
): () => void {
  const sweep = async () => {
    const days = await rollUp(db);
    const pruned = await prune(db, retentionDays);
    onDone({ days, ...pruned });
  };
  const run = () => void sweep().catch(onError);
  run();
  const timer = setInterval(run, HOUR).unref();
  return () => clearInterval(timer);
}
