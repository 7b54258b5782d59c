/**
 * Alerts about customers' money, every `balance_check_seconds`:
 * - `account.low_balance`: an account whose balance fell under its own `low_balance`, else under
 *   `alerts.low_balance_credits`; again only after the balance rose back to it or above.
 * - `budget.used_up`: a budget window of an account or a token that is used up; once per window.
 * Balances and windows are compared on a schedule rather than at each charge, which would put a
 * read on every request's path. `account_alerts` remembers what was alerted, and the insert that
 * claims an alert is made by one node only, so several nodes never alert twice.
 */
import type { Logger } from 'pino';
import { sql } from 'kysely';
import type { Db } from '../store/database.js';
import type { Metrics } from '../observe/metrics.js';
import type { Alerts, AlertEvent } from './alerts.js';
import { budgetsOf, windowsOf, type Budget } from '../accounts/budgets.js';
import { usedIn } from '../accounts/budget-use.js';

export interface AccountAlertOptions {
  /** The low-balance line of accounts that set none; none when undefined. */
  lowBalance: number | undefined;
  everyMs: number;
  /** The billing time zone of budget windows. */
  zone: string;
}

/** A used-up window's claim is kept this long after it was raised: past any month's end. */
const KEEP_WINDOW_CLAIMS_MS = 40 * 86_400_000;

export function watchAccounts(
  db: Db,
  alerts: Alerts,
  metrics: Metrics,
  options: AccountAlertOptions,
  log: Logger,
): () => void {
  /** Raises the alert once: only the node whose insert claimed `subject` sends it. */
  const claim = async (subject: string, type: AlertEvent, data: Record<string, unknown>) => {
    const claimed = await db
      .insertInto('account_alerts')
      .values({ subject, alerted_at: Date.now() })
      .onConflict((oc) => oc.column('subject').doNothing())
      .returning('subject')
      .execute();
    if (claimed.length > 0) await alerts.raise(type, data);
  };

  const lineOf = sql<number | null>`coalesce(low_balance, ${options.lowBalance ?? null})`;
  const checkBalances = async () => {
    const low = await db
      .selectFrom('accounts')
      .select(['id', 'name', 'credits', lineOf.as('line')])
      .where('credits', 'is not', null)
      .where(sql<boolean>`credits < ${lineOf}`)
      .execute();
    for (const account of low)
      await claim(`low_balance:${account.id}`, 'account.low_balance', {
        account: account.id,
        name: account.name,
        credits: Number(account.credits),
        threshold: Number(account.line),
      });
    // Accounts topped up (or made unlimited) since: their next fall alerts again.
    const risen = await db
      .selectFrom('accounts')
      .select('id')
      .where((eb) => eb.or([eb('credits', 'is', null), sql<boolean>`credits >= ${lineOf}`]))
      .execute();
    if (risen.length > 0)
      await db
        .deleteFrom('account_alerts')
        .where(
          'subject',
          'in',
          risen.map((r) => `low_balance:${r.id}`),
        )
        .execute();
  };

  const checkWindows = async () => {
    const accounts = await db
      .selectFrom('accounts')
      .select(['id', 'name', 'budgets'])
      .where('budgets', 'is not', null)
      .execute();
    const tokens = await db
      .selectFrom('tokens')
      .select(['id', 'name', 'budgets'])
      .where('budgets', 'is not', null)
      .where('revoked_at', 'is', null)
      .execute();
    const budgets: Budget[] = [
      ...accounts.flatMap((a) => budgetsOf(`account:${a.id}`, `account ${a.name}`, a.budgets)),
      ...tokens.flatMap((t) => budgetsOf(`token:${t.id}`, `token ${t.name}`, t.budgets)),
    ];
    const windows = windowsOf(budgets, Date.now(), options.zone);
    const used = await usedIn(db, windows);
    for (const [i, window] of windows.entries()) {
      if (used[i]! < window.limit) continue;
      await claim(`used_up:${window.owner}:${window.period}:${window.startsAt}`, 'budget.used_up', {
        owner: window.owner,
        name: window.label,
        period: window.period,
        credits: window.limit,
        used: used[i],
        resets_at: new Date(window.resetsAt).toISOString(),
      });
    }
    await db
      .deleteFrom('account_alerts')
      .where('subject', 'like', 'used_up:%')
      .where('alerted_at', '<', Date.now() - KEEP_WINDOW_CLAIMS_MS)
      .execute();
  };

  const timer = setInterval(() => {
    Promise.all([checkBalances(), checkWindows()])
      .then(() => metrics.balancesChecked())
      .catch((error: unknown) => log.error({ err: error }, 'balances not checked'));
  }, options.everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
