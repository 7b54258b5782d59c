/**
 * Low-balance alerts: every `balance_check_seconds`, the tokens whose credits fell under
 * `alerts.low_balance_credits` raise one `token.low_balance` alert each. Balances are compared
 * on a schedule rather than at each charge, which would put a read on every request's path.
 * `balance_alerts` remembers which tokens were alerted: a token alerts again only after its
 * balance rose back to the threshold, and the insert that claims a token is made by one node
 * only, so several nodes never alert twice.
 */
import type { Logger } from 'pino';
import type { Db } from '../store/database.js';
import type { Metrics } from '../observe/metrics.js';
import type { Alerts } from './alerts.js';

export function watchBalances(
  db: Db,
  alerts: Alerts,
  metrics: Metrics,
  threshold: number,
  everyMs: number,
  log: Logger,
): () => void {
  const check = async () => {
    const low = await db
      .selectFrom('tokens')
      .select(['id', 'name', 'credits'])
      .where('credits', 'is not', null)
      .where('credits', '<', threshold)
      .where('revoked_at', 'is', null)
      .where('id', 'not in', db.selectFrom('balance_alerts').select('token_id'))
      .execute();
    for (const token of low) {
      const claimed = await db
        .insertInto('balance_alerts')
        .values({ token_id: token.id, alerted_at: Date.now() })
        .onConflict((oc) => oc.column('token_id').doNothing())
        .returning('token_id')
        .execute();
      if (claimed.length > 0)
        await alerts.raise('token.low_balance', {
          token: token.id,
          name: token.name,
          credits: Number(token.credits),
          threshold,
        });
    }
    // Tokens topped up (or made unlimited) since: their next fall alerts again.
    await db
      .deleteFrom('balance_alerts')
      .where(
        'token_id',
        'in',
        db
          .selectFrom('tokens')
          .select('id')
          .where((eb) => eb.or([eb('credits', 'is', null), eb('credits', '>=', threshold)])),
      )
      .execute();
    metrics.balancesChecked();
  };
  const timer = setInterval(() => {
    check().catch((error: unknown) => log.error({ err: error }, 'balances not checked'));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
