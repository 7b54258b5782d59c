/**
 * What budget windows used, in `budget_use`, changed inside the transaction of the charge or the
 * refund it goes with. A window's row is made at its first charge; a conditional UPDATE takes a
 * charge only while the window covers it, so that concurrent charges never cross its limit.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../store/tables.js';
import { joinedKey, keyOf, type BudgetWindow, type WindowKey } from './budgets.js';

async function ensureRows(trx: Kysely<Database>, keys: readonly WindowKey[]): Promise<void> {
  if (keys.length === 0) return;
  await trx
    .insertInto('budget_use')
    .values(keys.map(([owner, period, starts_at]) => ({ owner, period, starts_at, used: 0 })))
    .onConflict((oc) => oc.columns(['owner', 'period', 'starts_at']).doNothing())
    .execute();
}

/**
 * Counts `amount` in every window; answers the first window that cannot cover it (and then the
 * caller's transaction must roll back), or undefined when all took it.
 */
export async function spendWindows(
  trx: Kysely<Database>,
  windows: readonly BudgetWindow[],
  amount: number,
): Promise<BudgetWindow | undefined> {
  await ensureRows(trx, windows.map(keyOf));
  for (const window of windows) {
    const taken = await trx
      .updateTable('budget_use')
      .set({ used: sql<number>`used + ${amount}` })
      .where('owner', '=', window.owner)
      .where('period', '=', window.period)
      .where('starts_at', '=', window.startsAt)
      .where(sql<boolean>`used + ${amount} <= ${window.limit}`)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 0) return window;
  }
  return undefined;
}

/** Gives `amount` back to the windows a charge counted in (a window past its reset keeps no use). */
export async function returnWindows(
  trx: Kysely<Database>,
  keys: readonly WindowKey[],
  amount: number,
): Promise<void> {
  for (const [owner, period, startsAt] of keys) {
    await trx
      .updateTable('budget_use')
      .set({ used: sql<number>`used - ${amount}` })
      .where('owner', '=', owner)
      .where('period', '=', period)
      .where('starts_at', '=', startsAt)
      .execute();
  }
}

/** The use of these windows, their rows locked until the transaction ends (PostgreSQL). */
export async function lockedUse(
  trx: Kysely<Database>,
  keys: readonly WindowKey[],
): Promise<Map<string, number>> {
  const use = new Map<string, number>();
  if (keys.length === 0) return use;
  await ensureRows(trx, keys);
  // Locked in key order, so that two nodes never wait on each other's rows.
  for (const key of [...keys].sort((a, b) => joinedKey(a).localeCompare(joinedKey(b)))) {
    const row = await trx
      .selectFrom('budget_use')
      .select('used')
      .where('owner', '=', key[0])
      .where('period', '=', key[1])
      .where('starts_at', '=', key[2])
      .forUpdate()
      .executeTakeFirstOrThrow();
    use.set(joinedKey(key), Number(row.used));
  }
  return use;
}

/** What each of `windows` has used so far (`GET /v1/account`, the admin records, the alerts). */
export async function usedIn(db: Kysely<Database>, windows: readonly BudgetWindow[]): Promise<number[]> {
  return Promise.all(
    windows.map(async (w) => {
      const row = await db
        .selectFrom('budget_use')
        .select('used')
        .where('owner', '=', w.owner)
        .where('period', '=', w.period)
        .where('starts_at', '=', w.startsAt)
        .executeTakeFirst();
      return Number(row?.used ?? 0);
    }),
  );
}
