/**
 * What related searches are made of: the queries each scope asked before (kept in their own
 * FTS5 table, so a new query finds earlier ones sharing its terms) and the words the found
 * documents share beyond the query's own.
 */
import type Database from 'better-sqlite3';
import { primaryLanguage } from './filters.js';
import { anyExpression, parseQuery } from './query.js';
import { STOP_WORDS } from './stopwords.js';
import type { SearchHit, SearchRequest } from './types.js';

/** Records that a scope searched `query`, for its related searches later. */
export function rememberQuery(db: Database.Database, scope: string, query: string): void {
  const text = query.trim().replace(/\s+/g, ' ').toLowerCase();
  if (text.length === 0 || text.length > 200) return;
  db.transaction(() => {
    const row = db
      .prepare<[string, string], { id: number; count: number }>(
        `INSERT INTO queries (scope, text, count) VALUES (?, ?, 1)
         ON CONFLICT (scope, text) DO UPDATE SET count = count + 1 RETURNING id, count`,
      )
      .get(scope, text);
    // The first time only: the external-content FTS table is kept in step by hand.
    if (row?.count === 1) db.prepare('INSERT INTO queries_fts (rowid, text) VALUES (?, ?)').run(row.id, text);
  })();
}

/** Earlier queries of the same scope sharing terms with this one, the closest and most asked first. */
export function pastQueries(db: Database.Database, scope: string, query: string, count: number): string[] {
  const clauses = parseQuery(query);
  if (clauses.length === 0) return [];
  const own = query.trim().replace(/\s+/g, ' ').toLowerCase();
  return db
    .prepare<[string, string, string, number], { text: string }>(
      `SELECT q.text FROM queries_fts JOIN queries q ON q.id = queries_fts.rowid
       WHERE queries_fts MATCH ? AND q.scope = ? AND q.text != ?
       ORDER BY bm25(queries_fts) - ln(q.count + 1), q.id LIMIT ?`,
    )
    .all(anyExpression(clauses), scope, own, count)
    .map((row) => row.text);
}

/**
 * Words that several of the given hits share beyond the query's own, most shared first: what
 * the found documents say the query is about, for refinements.
 */
export function cooccurring(hits: readonly SearchHit[], request: SearchRequest, count: number): string[] {
  const clauses = parseQuery(request.query, request.language);
  const inQuery = new Set(clauses.flatMap((clause) => clause.tokens));
  const stop = STOP_WORDS[primaryLanguage(request.language ?? 'en')] ?? new Set<string>();
  const weights = new Map<string, number>();
  for (const hit of hits) {
    const words = new Set(`${hit.title} ${hit.text}`.toLowerCase().match(/\p{L}{4,}/gu) ?? []);
    for (const word of words) {
      if (!inQuery.has(word) && !stop.has(word)) weights.set(word, (weights.get(word) ?? 0) + 1);
    }
  }
  return [...weights]
    .filter(([, n]) => n > 1)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, count)
    .map(([word]) => word);
}
