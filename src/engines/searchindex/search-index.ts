import Database from 'better-sqlite3';
import { joinCjk, spaceCjk } from './cjk.js';
import { expansionTerms } from './feedback.js';
import { filterSql } from './filters.js';
import { anyExpression, clauseExpression, parseQuery } from './query.js';
import { SCHEMA } from './schema.js';
import { STOP_WORDS } from './stopwords.js';
import type {
  RankedId,
  RankingOptions,
  SearchDocument,
  SearchHit,
  SearchRequest,
  SearchResult,
} from './types.js';

/**
 * The best of a small grid on Cranfield's odd-numbered queries only (bench/search-quality.mjs):
 * dev nDCG@10 0.412; held-out even queries 0.375 (plain BM25 0.358).
 */
export const DEFAULT_RANKING: RankingOptions = {
  titleWeight: 5,
  bodyWeight: 1,
  feedbackDocs: 5,
  feedbackTerms: 40,
  feedbackWeight: 2,
};

interface DocumentRow {
  id: number;
  link: string;
  title: string;
  date: string | null;
  language: string | null;
  country: string | null;
  type: string | null;
  image_url: string | null;
}

/**
 * A full-text index in its own SQLite file. Scores are BM25 summed per query clause, which is
 * what FTS5 computes for an OR query, done one clause at a time so that clauses (original and
 * feedback terms) can carry their own weights.
 */
export class SearchIndex {
  private readonly db: Database.Database;
  private readonly stopStems: ReadonlySet<string>;
  ranking: RankingOptions;

  constructor(file: string, ranking: Partial<RankingOptions> = {}) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.exec(SCHEMA);
    this.ranking = { ...DEFAULT_RANKING, ...ranking };
    this.stopStems = this.stemStopWords();
  }

  /** Adds documents in one transaction; a link already indexed is replaced. */
  add(documents: readonly SearchDocument[]): void {
    const existing = this.db.prepare<[string], { id: number }>('SELECT id FROM documents WHERE link = ?');
    const dropText = this.db.prepare('DELETE FROM fts WHERE rowid = ?');
    const dropRow = this.db.prepare('DELETE FROM documents WHERE id = ?');
    const insert = this.db.prepare(
      `INSERT INTO documents (link, title, text, date, language, country, type, image_url)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const index = this.db.prepare('INSERT INTO fts (rowid, title, body) VALUES (?, ?, ?)');
    this.db.transaction(() => {
      for (const doc of documents) {
        const old = existing.get(doc.link);
        if (old) {
          dropText.run(old.id);
          dropRow.run(old.id);
        }
        const { lastInsertRowid } = insert.run(
          doc.link,
          doc.title,
          doc.text,
          doc.date ?? null,
          doc.language?.toLowerCase() ?? null,
          doc.country?.toUpperCase() ?? null,
          doc.type ?? null,
          doc.image_url ?? null,
        );
        index.run(lastInsertRowid, spaceCjk(doc.title), spaceCjk(doc.text));
      }
    })();
  }

  /** Every matching document id with its score, best first, ties by id (stable paging). */
  rank(request: SearchRequest, ranking: RankingOptions = this.ranking): RankedId[] {
    const clauses = parseQuery(request.query, request.language);
    if (clauses.length === 0) return [];
    const weighted = clauses.map((clause) => ({
      expression: clauseExpression(clause),
      weight: 1 / clauses.length,
    }));
    const first = this.score(weighted, request, ranking);
    if (ranking.feedbackWeight <= 0 || ranking.feedbackDocs <= 0 || first.length === 0) return first;
    const top = first.slice(0, ranking.feedbackDocs);
    const terms = expansionTerms(top, (id) => this.termsOf(id), this.stopStems, ranking.feedbackTerms);
    const expansion = terms.map(({ term, weight }) => ({
      expression: `"${term.replaceAll('"', '""')}"`,
      weight: weight * ranking.feedbackWeight,
    }));
    return this.score([...weighted, ...expansion], request, ranking);
  }

  search(request: SearchRequest): SearchResult {
    const number = Math.max(1, Math.floor(request.number ?? 10));
    const page = Math.max(1, Math.floor(request.page ?? 1));
    const ranked = this.rank(request);
    const start = (page - 1) * number;
    const slice = ranked.slice(start, start + number);
    const row = this.db.prepare<[number], DocumentRow>(
      'SELECT id, link, title, date, language, country, type, image_url FROM documents WHERE id = ?',
    );
    const expression = anyExpression(parseQuery(request.query, request.language));
    const snippet = this.db.prepare<[string, number], { snippet: string }>(
      `SELECT snippet(fts, -1, '<b>', '</b>', '…', 24) AS snippet FROM fts WHERE fts MATCH ? AND rowid = ?`,
    );
    const hits: SearchHit[] = slice.map((hit, i) => {
      const doc = row.get(hit.id);
      if (!doc) throw new Error(`document ${hit.id} vanished during search`);
      return {
        ...doc,
        position: start + i + 1,
        score: hit.score,
        snippet: joinCjk(snippet.get(expression, hit.id)?.snippet ?? ''),
      };
    });
    return { total: ranked.length, hits };
  }

  close(): void {
    this.db.close();
  }

  private score(
    clauses: readonly { expression: string; weight: number }[],
    request: SearchRequest,
    ranking: RankingOptions,
  ): RankedId[] {
    const filter = filterSql(request);
    const statement = this.db.prepare<unknown[], RankedId>(
      `SELECT fts.rowid AS id, -bm25(fts, ?, ?) AS score FROM fts JOIN documents d ON d.id = fts.rowid
       WHERE fts MATCH ?${filter.sql}`,
    );
    const scores = new Map<number, number>();
    for (const { expression, weight } of clauses) {
      for (const hit of statement.all(
        ranking.titleWeight,
        ranking.bodyWeight,
        expression,
        ...filter.params,
      )) {
        scores.set(hit.id, (scores.get(hit.id) ?? 0) + weight * hit.score);
      }
    }
    return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score || a.id - b.id);
  }

  /**
   * Stemmed term counts of one document, by running its text through a one-row scratch FTS5
   * table: cost follows the document's length, not the index's (an fts5vocab 'instance' scan of
   * the main table reads every posting).
   */
  private termsOf(id: number): Map<string, number> {
    const doc = this.db
      .prepare<[number], { title: string; text: string }>('SELECT title, text FROM documents WHERE id = ?')
      .get(id);
    this.db.prepare('DELETE FROM temp.scratch').run();
    if (!doc) return new Map();
    this.db.prepare('INSERT INTO temp.scratch (w) VALUES (?)').run(spaceCjk(`${doc.title}\n${doc.text}`));
    const rows = this.db
      .prepare<[], { term: string; n: number }>('SELECT term, cnt AS n FROM temp.scratch_terms')
      .all();
    return new Map(rows.map((row) => [row.term, row.n]));
  }

  /** The stop words as the porter tokenizer stems them ("this" → "thi"), to skip in feedback. */
  private stemStopWords(): Set<string> {
    const words = [...Object.values(STOP_WORDS)].flatMap((set) => [...set]).join(' ');
    this.db.exec(
      "CREATE VIRTUAL TABLE temp.scratch USING fts5(w, tokenize = 'porter unicode61 remove_diacritics 2')",
    );
    this.db.exec('CREATE VIRTUAL TABLE temp.scratch_terms USING fts5vocab(temp, scratch, row)');
    this.db.prepare('INSERT INTO temp.scratch (w) VALUES (?)').run(words);
    const rows = this.db.prepare<[], { term: string }>('SELECT term FROM temp.scratch_terms').all();
    this.db.prepare('DELETE FROM temp.scratch').run();
    return new Set(rows.map((row) => row.term));
  }
}
