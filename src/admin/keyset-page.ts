/**
 * The lists of the admin API are paged by keyset, newest first: a page is asked for with the
 * cursor of the last row of the page before (`before`), never by offset, so that rows written
 * meanwhile neither repeat nor go missing. Rows are ordered by their time-ordered `id`, or by
 * `created_at` and then `id` where ids are not time-ordered. One more row than the page holds is
 * fetched, so that pageOf (values.ts) knows whether another page follows.
 */
import { sql, type SelectQueryBuilder } from 'kysely';
import { decodeCursor } from './values.js';

export interface PageQuery {
  before?: string;
  limit: number;
}

/** `select` newest first by `id`, from after the cursor on. */
export function pageById<DB, TB extends keyof DB, O>(
  select: SelectQueryBuilder<DB, TB, O>,
  query: PageQuery,
): SelectQueryBuilder<DB, TB, O> {
  const before = decodeCursor(query.before, ['string']);
  const page = select.orderBy(sql`id`, 'desc').limit(query.limit + 1);
  return before ? page.where(sql<boolean>`id < ${before[0]}`) : page;
}

/** `select` newest first by `created_at`, then `id`, from after the cursor on. */
export function pageByCreation<DB, TB extends keyof DB, O>(
  select: SelectQueryBuilder<DB, TB, O>,
  query: PageQuery,
): SelectQueryBuilder<DB, TB, O> {
  const before = decodeCursor(query.before, ['number', 'string']);
  const page = select
    .orderBy(sql`created_at`, 'desc')
    .orderBy(sql`id`, 'desc')
    .limit(query.limit + 1);
  if (!before) return page;
  const [at, id] = before;
  return page.where(sql<boolean>`(created_at < ${at} or (created_at = ${at} and id < ${id}))`);
}
