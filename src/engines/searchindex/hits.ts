/**
 * A ranked document read back as a result: its stored fields, and a snippet of one line, the
 * text whole when it is short, cut by FTS5 around the query's terms when it is long.
 */
import type Database from 'better-sqlite3';
import { joinCjk } from './cjk.js';
import type { Kind, RankedId, SearchHit } from './types.js';

/** Text up to this long is shown whole as its snippet; longer text is cut around the terms. */
const WHOLE_SNIPPET = 300;
const SNIPPET_TOKENS = 32;

interface DocumentRow {
  id: number;
  kind: Kind;
  link: string;
  site: string;
  title: string;
  text: string;
  date: string | null;
  language: string | null;
  country: string | null;
  image_url: string | null;
  source: string | null;
  fields: string | null;
}

/** The hit at `position`; no snippet when `expression` (the query's FTS5 expression) is empty. */
export function hitOf(
  db: Database.Database,
  ranked: RankedId,
  position: number,
  expression: string,
): SearchHit {
  const { fields, ...doc } = row(db, ranked.id);
  return {
    ...doc,
    position,
    score: ranked.score,
    fields: fields ? (JSON.parse(fields) as Record<string, unknown>) : {},
    snippet: expression ? snippet(db, ranked.id, doc.text, expression) : '',
  };
}

function row(db: Database.Database, id: number): DocumentRow {
  const doc = db
    .prepare<[number], DocumentRow>(
      'SELECT id, kind, link, site, title, text, date, language, country, image_url, source, fields FROM documents WHERE id = ?',
    )
    .get(id);
  if (!doc) throw new Error(`document ${id} vanished during search`);
  return doc;
}

/** Short text whole; long text cut around the query's terms; plain text on one line. */
function snippet(db: Database.Database, id: number, text: string, expression: string): string {
  // One line, as result lists show them: line breaks and runs of spaces become one space.
  if (text.length <= WHOLE_SNIPPET) return text.replace(/\s+/g, ' ').trim();
  // A range, not `rowid = ?`: with both bound, SQLite 3.53's FTS5 hands the two values to the
  // wrong constraints and snippets the first match instead of this document.
  const cut = db
    .prepare<[string, number, number], { snippet: string }>(
      `SELECT snippet(fts, 1, '', '', '…', ${SNIPPET_TOKENS}) AS snippet FROM fts
       WHERE fts MATCH ? AND rowid >= ? AND rowid <= ?`,
    )
    .get(expression, id, id);
  return (joinCjk(cut?.snippet ?? '').trim() || `${text.slice(0, WHOLE_SNIPPET)}…`).replace(/\s+/g, ' ');
}
