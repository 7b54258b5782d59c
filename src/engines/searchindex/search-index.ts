import Database from 'better-sqlite3';
import { joinCjk, spaceCjk, tokenCount } from './cjk.js';
import { expansionTerms } from './feedback.js';
import { KeptFiles, type KeptAddress } from './files.js';
import { filterSql, primaryLanguage, type FacetCount } from './filters.js';
import { anyExpression, parseQuery, titleExpression } from './query.js';
import { recordKey, siteOf } from './records.js';
import { SCHEMA, SCHEMA_VERSION } from './schema.js';
import { Stemmer } from './stemmer.js';
import { STOP_WORDS } from './stopwords.js';
import { UPGRADABLE_VERSIONS, upgrade } from './upgrade.js';
import type {
  KeptFile,
  Kind,
  RankedId,
  RankingOptions,
  SearchDocument,
  SearchHit,
  SearchRequest,
  SearchResult,
} from './types.js';

/**
 * The best of a grid on Cranfield's odd-numbered queries only (bench/search-quality.mjs); the
 * held-out even queries are reported there.
 */
export const DEFAULT_RANKING: RankingOptions = {
  titleWeight: 5,
  bodyWeight: 1,
  feedbackDocs: 5,
  feedbackTerms: 40,
  feedbackSharpness: 0.5,
  feedbackWeight: 1,
  feedbackDepth: 30,
};

/** BM25's usual constants, as FTS5's bm25() uses them, for the feedback terms scored here. */
const BM25_K1 = 1.2;
const BM25_B = 0.75;

/** Text up to this long is shown whole as its snippet; longer text is cut around the terms. */
const WHOLE_SNIPPET = 300;
/** Document frequencies kept at most; beyond, the memory is started afresh. */
const FREQUENCIES_KEPT = 100_000;
const SNIPPET_TOKENS = 32;

/** A document's stemmed terms, per column, and its length as bm25() counts it. */
interface TermVector {
  tokens: number;
  title: Map<string, number>;
  body: Map<string, number>;
}

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

export interface IndexStats {
  documents: number;
  byKind: Partial<Record<Kind, number>>;
  sites: number;
  pastQueries: number;
  bytes: number;
}

export class IndexVersionError extends Error {}

/**
 * A full-text index in its own SQLite file. Scores are FTS5's BM25 with field weights for the
 * query's words, then feedback terms scored over the best documents' own term counts.
 */
export class SearchIndex {
  private readonly db: Database.Database;
  private readonly stemmer: Stemmer;
  private readonly stopStems: ReadonlySet<string>;
  private count: number | undefined;
  private profile: (FacetCount & { n: number })[] | undefined;
  private readonly frequencies = new Map<string, number>();
  private version = -1;
  private readonly files: KeptFiles;
  ranking: RankingOptions;
  /** Documents not linked by http(s) URLs that opening an earlier version's index removed (upgrade.ts). */
  readonly removedDocuments: number = 0;

  constructor(file: string, ranking: Partial<RankingOptions> = {}) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    // An index can be rebuilt from its sources: no sync per remembered query, WAL keeps it whole.
    this.db.pragma('synchronous = NORMAL');
    const version = this.db.pragma('user_version', { simple: true }) as number;
    const fresh = this.db
      .prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'documents'")
      .get() as {
      n: number;
    };
    if (fresh.n > 0 && UPGRADABLE_VERSIONS.includes(version)) this.removedDocuments = upgrade(this.db);
    else if (fresh.n > 0 && version !== SCHEMA_VERSION) {
      this.db.close();
      throw new IndexVersionError(
        `${file} was built by another version of the search index (${version}, expected ${SCHEMA_VERSION}); remove it and index again`,
      );
    }
    this.db.exec(SCHEMA);
    this.db.pragma(`user_version = ${SCHEMA_VERSION}`);
    this.ranking = { ...DEFAULT_RANKING, ...ranking };
    this.files = new KeptFiles(this.db);
    this.stemmer = new Stemmer(this.db);
    // The stop words as the tokenizer stems them ("this" → "thi"), to skip in feedback.
    this.stopStems = this.stemmer.terms(
      Object.values(STOP_WORDS)
        .flatMap((set) => [...set])
        .join(' '),
    );
  }

  /** Adds documents in one transaction; a record already indexed is replaced. */
  add(documents: readonly SearchDocument[]): void {
    const existing = this.db.prepare<[string], { id: number }>('SELECT id FROM documents WHERE key = ?');
    const dropText = this.db.prepare('DELETE FROM fts WHERE rowid = ?');
    const dropRow = this.db.prepare('DELETE FROM documents WHERE id = ?');
    const dropFacets = this.db.prepare('DELETE FROM facets WHERE id = ?');
    const facets = this.db.prepare(
      'INSERT INTO facets (id, kind, language, country, date, has_image) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const insert = this.db.prepare(
      `INSERT INTO documents (key, kind, link, site, title, text, tokens, date, language, country, image_url, source, fields)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const index = this.db.prepare('INSERT INTO fts (rowid, title, body) VALUES (?, ?, ?)');
    this.db.transaction(() => {
      for (const doc of documents) {
        const key = recordKey(doc);
        const old = existing.get(key);
        if (old) {
          dropText.run(old.id);
          dropRow.run(old.id);
          dropFacets.run(old.id);
        }
        const kind = doc.kind ?? 'page';
        const date = doc.date ?? null;
        const language = doc.language ? primaryLanguage(doc.language) : null;
        const country = doc.country?.toUpperCase() ?? null;
        const { lastInsertRowid } = insert.run(
          key,
          kind,
          doc.link,
          siteOf(doc.link),
          doc.title,
          doc.text,
          tokenCount(doc.title) + tokenCount(doc.text),
          date,
          language,
          country,
          doc.image_url ?? null,
          doc.source ?? null,
          doc.fields && Object.keys(doc.fields).length > 0 ? JSON.stringify(doc.fields) : null,
        );
        facets.run(lastInsertRowid, kind, language, country, date, doc.image_url ? 1 : 0);
        index.run(lastInsertRowid, spaceCjk(doc.title), spaceCjk(doc.text));
        if (doc.file) this.files.put(doc.link, doc.file);
      }
    })();
    this.refresh(true);
  }

  /** Every matching document id with its score, best first, ties by id (stable paging). */
  rank(request: SearchRequest, ranking: RankingOptions = this.ranking): RankedId[] {
    const clauses = parseQuery(request.query, request.language);
    if (clauses.length === 0) return [];
    this.refresh();
    // One OR query: bm25() sums its phrases' scores, each clause weighing the same, 1/n.
    const first = this.score(anyExpression(clauses), 1 / clauses.length, request, ranking);
    if (ranking.feedbackWeight <= 0 || ranking.feedbackDocs <= 0 || first.length === 0) return first;
    return this.feedback(first, clauses.length, ranking);
  }

  /**
   * Reorders the best `feedbackDepth` results by the expansion terms of the top few (RM3-style),
   * each scored as bm25() scores the query's words: column weights, BM25 over each document's
   * own term counts. The original query keeps weight 1 against the expansion's
   * `feedbackWeight`. Cost follows the depth, not the index: on a large index a common
   * expansion term would otherwise mean reading its whole posting list; on Cranfield, scoring
   * the whole index instead ranks as reordering the first hundred does. Results below the depth
   * keep their order; they were behind already, and feedback only adds to scores, so they stay
   * behind. It never brings in a document that lacks every query word.
   */
  private feedback(first: RankedId[], clauses: number, ranking: RankingOptions): RankedId[] {
    const top = first.slice(0, ranking.feedbackDocs);
    const topVectors = this.termVectors(top.map((hit) => hit.id));
    const terms = expansionTerms(
      // Scores summed over the query's words, as a log-likelihood is (score() averages them).
      top.map((hit) => ({ id: hit.id, score: hit.score * clauses })),
      (id) => wholeCounts(topVectors.get(id)),
      this.stopStems,
      ranking.feedbackTerms,
      ranking.feedbackSharpness,
    );
    if (terms.length === 0) return first;
    const depth = first.slice(0, ranking.feedbackDepth);
    const vectors = this.termVectors(
      depth.map((hit) => hit.id),
      new Set(terms.map((t) => t.term)),
    );
    const tokensOf = (id: number) => vectors.get(id)?.tokens ?? 0;
    const averageLength = depth.reduce((sum, hit) => sum + tokensOf(hit.id), 0) / Math.max(1, depth.length);
    const documents = this.documentCount();
    const idf = terms.map(({ term }) => {
      const df = this.documentFrequency(term);
      return Math.max(1e-6, Math.log((documents - df + 0.5) / (df + 0.5)));
    });
    const reordered = depth.map((hit) => {
      const vector = vectors.get(hit.id);
      const norm = BM25_K1 * (1 - BM25_B + (BM25_B * tokensOf(hit.id)) / Math.max(1, averageLength));
      let extra = 0;
      terms.forEach(({ term, weight }, t) => {
        const tf =
          ranking.titleWeight * (vector?.title.get(term) ?? 0) +
          ranking.bodyWeight * (vector?.body.get(term) ?? 0);
        if (tf > 0) extra += weight * (idf[t] ?? 0) * ((tf * (BM25_K1 + 1)) / (tf + norm));
      });
      return { id: hit.id, score: hit.score + ranking.feedbackWeight * extra };
    });
    reordered.sort((a, b) => b.score - a.score || a.id - b.id);
    return [...reordered, ...first.slice(depth.length)];
  }

  /** Documents in the index, kept between searches until the index changes. */
  private documentCount(): number {
    this.count ??= (this.db.prepare('SELECT count(*) AS n FROM facets').get() as { n: number }).n;
    return this.count;
  }

  /**
   * How many documents hold `term` (a stemmed token), from the index's vocabulary. Counting
   * reads the term's whole posting list, and feedback terms are the common ones, so counts are
   * kept until the index changes.
   */
  private documentFrequency(term: string): number {
    let df = this.frequencies.get(term);
    if (df === undefined) {
      df =
        this.db.prepare<[string], { doc: number }>('SELECT doc FROM fts_vocabulary WHERE term = ?').get(term)
          ?.doc ?? 0;
      if (this.frequencies.size >= FREQUENCIES_KEPT) this.frequencies.clear();
      this.frequencies.set(term, df);
    }
    return df;
  }

  /** How many records of `kind` the index holds, kept until the index changes. */
  holds(kind: Kind): number {
    return this.facets()
      .filter((f) => f.kind === kind)
      .reduce((sum, f) => sum + f.n, 0);
  }

  /** Records by kind, language and country, kept until the index changes. */
  private facets(): (FacetCount & { n: number })[] {
    this.refresh();
    this.profile ??= this.db
      .prepare<[], FacetCount & { n: number }>(
        'SELECT kind, language, country, count(*) AS n FROM facets GROUP BY kind, language, country',
      )
      .all();
    return this.profile;
  }

  /** The request's conditions, and the join to facets they need (none when there are none). */
  private filter(request: SearchRequest): { join: string; sql: string; params: string[] } {
    const filter = filterSql(request, this.facets());
    return { ...filter, join: filter.sql ? ' JOIN facets d ON d.id = fts.rowid' : '' };
  }

  /**
   * Forgets what was kept about the index when it changed: through this connection (add) or
   * another one, such as `switchyard search index` while the server runs (data_version).
   */
  private refresh(changed = false): void {
    const version = this.db.pragma('data_version', { simple: true }) as number;
    if (!changed && version === this.version) return;
    this.version = version;
    this.count = undefined;
    this.profile = undefined;
    this.frequencies.clear();
  }

  search(request: SearchRequest, ranking: RankingOptions = this.ranking): SearchResult {
    const number = Math.max(1, Math.floor(request.number ?? 10));
    const page = Math.max(1, Math.floor(request.page ?? 1));
    const ranked = this.rank(request, ranking);
    const start = (page - 1) * number;
    const expression = anyExpression(parseQuery(request.query, request.language));
    const hits = ranked
      .slice(start, start + number)
      .map((hit, i) => this.hit(hit, start + i + 1, expression));
    let scores: Map<number, number> | undefined;
    const scoreOf = (id: number) => (scores ??= new Map(ranked.map((r) => [r.id, r.score]))).get(id);
    return { total: ranked.length, hits, scoreOf };
  }

  /** The entity whose name holds every query term, best first; undefined when none does. */
  entity(request: SearchRequest): SearchHit | undefined {
    const clauses = parseQuery(request.query, request.language);
    if (clauses.length === 0) return undefined;
    const filter = this.filter({ ...request, kinds: ['entity'], range: undefined });
    const best = this.db
      .prepare<unknown[], RankedId>(
        `SELECT fts.rowid AS id, -bm25(fts, ?, ?) AS score FROM fts${filter.join}
         WHERE fts MATCH ?${filter.sql} ORDER BY score DESC, id LIMIT 1`,
      )
      .get(this.ranking.titleWeight, this.ranking.bodyWeight, titleExpression(clauses), ...filter.params);
    return best ? this.hit(best, 1, anyExpression(clauses)) : undefined;
  }

  /**
   * Other pages of `hit`'s site that the same search found and that are not in `shown`, best
   * first: the site's own pages on the topic. Reads at most 200 pages of one site, and no
   * postings: the search already scored every match.
   */
  sitelinks(hit: SearchHit, result: SearchResult, shown: ReadonlySet<number>, count: number): SearchHit[] {
    return this.db
      .prepare<[string, number], { id: number }>(
        "SELECT id FROM documents WHERE site = ? AND kind = 'page' AND id != ? LIMIT 200",
      )
      .all(hit.site, hit.id)
      .filter((row) => !shown.has(row.id))
      .map((row) => ({ id: row.id, score: result.scoreOf(row.id) }))
      .filter((match): match is RankedId => match.score !== undefined)
      .sort((a, b) => b.score - a.score || a.id - b.id)
      .slice(0, count)
      .map((match, i) => this.hit(match, i + 1, ''));
  }

  /** The root of the folder at `folder` (an absolute path), which its kept files' links name. */
  root(folder: string): number {
    return this.files.root(folder);
  }

  /** Where a kept file's link is handed out (files.ts); undefined for any other link. */
  fileAddress(link: string): KeptAddress | undefined {
    return this.files.address(link);
  }

  /** The file kept at `path` below the root whose key is `key`; undefined otherwise. */
  file(key: string, path: string): KeptFile | undefined {
    return this.files.get(key, path);
  }

  /** Records that a scope searched `query`, for its related searches later. */
  remember(scope: string, query: string): void {
    const text = query.trim().replace(/\s+/g, ' ').toLowerCase();
    if (text.length === 0 || text.length > 200) return;
    this.db.transaction(() => {
      const row = this.db
        .prepare<[string, string], { id: number; count: number }>(
          `INSERT INTO queries (scope, text, count) VALUES (?, ?, 1)
           ON CONFLICT (scope, text) DO UPDATE SET count = count + 1 RETURNING id, count`,
        )
        .get(scope, text);
      // The first time only: the external-content FTS table is kept in step by hand.
      if (row?.count === 1)
        this.db.prepare('INSERT INTO queries_fts (rowid, text) VALUES (?, ?)').run(row.id, text);
    })();
  }

  /** Earlier queries of the same scope sharing terms with this one, the closest and most asked first. */
  pastQueries(scope: string, query: string, count: number): string[] {
    const clauses = parseQuery(query);
    if (clauses.length === 0) return [];
    const own = query.trim().replace(/\s+/g, ' ').toLowerCase();
    return this.db
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
  cooccurring(hits: readonly SearchHit[], request: SearchRequest, count: number): string[] {
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

  stats(): IndexStats {
    const kinds = this.db
      .prepare<[], { kind: Kind; n: number }>('SELECT kind, count(*) AS n FROM facets GROUP BY kind')
      .all();
    const one = (sql: string) => (this.db.prepare(sql).get() as { n: number }).n;
    return {
      documents: kinds.reduce((sum, row) => sum + row.n, 0),
      byKind: Object.fromEntries(kinds.map((row) => [row.kind, row.n])),
      sites: one('SELECT count(DISTINCT site) AS n FROM documents'),
      pastQueries: one('SELECT count(*) AS n FROM queries'),
      bytes: one('SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()'),
    };
  }

  close(): void {
    this.db.close();
  }

  private row(id: number): DocumentRow {
    const doc = this.db
      .prepare<[number], DocumentRow>(
        'SELECT id, kind, link, site, title, text, date, language, country, image_url, source, fields FROM documents WHERE id = ?',
      )
      .get(id);
    if (!doc) throw new Error(`document ${id} vanished during search`);
    return doc;
  }

  private hit(ranked: RankedId, position: number, expression: string): SearchHit {
    const { fields, ...doc } = this.row(ranked.id);
    return {
      ...doc,
      position,
      score: ranked.score,
      fields: fields ? (JSON.parse(fields) as Record<string, unknown>) : {},
      snippet: expression ? this.snippet(ranked.id, doc.text, expression) : '',
    };
  }

  /** Short text whole; long text cut around the query's terms; plain text on one line. */
  private snippet(id: number, text: string, expression: string): string {
    // One line, as result lists show them: line breaks and runs of spaces become one space.
    if (text.length <= WHOLE_SNIPPET) return text.replace(/\s+/g, ' ').trim();
    // A range, not `rowid = ?`: with both bound, SQLite 3.53's FTS5 hands the two values to the
    // wrong constraints and snippets the first match instead of this document.
    const cut = this.db
      .prepare<[string, number, number], { snippet: string }>(
        `SELECT snippet(fts, 1, '', '', '…', ${SNIPPET_TOKENS}) AS snippet FROM fts
         WHERE fts MATCH ? AND rowid >= ? AND rowid <= ?`,
      )
      .get(expression, id, id);
    return (joinCjk(cut?.snippet ?? '').trim() || `${text.slice(0, WHOLE_SNIPPET)}…`).replace(/\s+/g, ' ');
  }

  private score(
    expression: string,
    weight: number,
    request: SearchRequest,
    ranking: RankingOptions,
  ): RankedId[] {
    const filter = this.filter(request);
    const rows = this.db
      .prepare<unknown[], [number, number]>(
        `SELECT fts.rowid, -bm25(fts, ?, ?) FROM fts${filter.join} WHERE fts MATCH ?${filter.sql}`,
      )
      .raw(true)
      .all(ranking.titleWeight, ranking.bodyWeight, expression, ...filter.params);
    return rows
      .map(([id, score]) => ({ id, score: weight * score }))
      .sort((a, b) => b.score - a.score || a.id - b.id);
  }

  /** Stemmed term counts of some documents, per column: of every term, or of the `only` ones. */
  private termVectors(ids: readonly number[], only?: ReadonlySet<string>): Map<number, TermVector> {
    const read = this.db.prepare<[number], { id: number; title: string; text: string; tokens: number }>(
      'SELECT id, title, text, tokens FROM documents WHERE id = ?',
    );
    const docs = ids.flatMap((id) => read.get(id) ?? []);
    const counts = this.stemmer.count(
      docs.flatMap((doc) => [doc.title, doc.text]),
      only,
    );
    return new Map(
      docs.map((doc, i) => [
        doc.id,
        { tokens: doc.tokens, title: counts[2 * i] ?? new Map(), body: counts[2 * i + 1] ?? new Map() },
      ]),
    );
  }
}

/** A document's terms over both columns, each occurrence counted once: its language model. */
function wholeCounts(vector: TermVector | undefined): Map<string, number> {
  const counts = new Map(vector?.body);
  for (const [term, n] of vector?.title ?? []) counts.set(term, (counts.get(term) ?? 0) + n);
  return counts;
}
