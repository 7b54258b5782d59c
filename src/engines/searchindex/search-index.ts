/**
 * The search index as the server and the CLI use it: one SQLite file, searched by FTS5's BM25
 * with field weights, reordered by query feedback (reranking.ts), filtered by kind, language,
 * country and date (filters.ts), with what is kept between searches forgotten when the file
 * changes. Writing documents, reading hits and related searches each live in their own file.
 */
import type Database from 'better-sqlite3';
import { addDocuments } from './add-documents.js';
import { KeptFiles, type KeptAddress } from './files.js';
import { filterSql, type FacetCount } from './filters.js';
import { hitOf } from './hits.js';
import { openIndex } from './open.js';
import { anyExpression, parseQuery, titleExpression } from './query.js';
import { cooccurring, pastQueries, rememberQuery } from './related.js';
import { embedDocuments } from './embed-documents.js';
import { MeaningRanking, type MeaningPolicy } from './meaning.js';
import { FeedbackRanking } from './reranking.js';
import { StoredVectors } from './vectors.js';
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

export { IndexVersionError } from './open.js';

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

/**
 * How many results a search lists at most: 100 pages of 10. On a large index a common word
 * matches a tenth of it, and handing every match to JavaScript, to sort and keep, cost a search
 * more than scoring them did.
 */
export const RESULTS_LISTED = 1000;

export interface IndexStats {
  documents: number;
  byKind: Partial<Record<Kind, number>>;
  /** Documents with an embedding, for ranking by meaning. */
  embedded: number;
  sites: number;
  pastQueries: number;
  bytes: number;
}

/**
 * The best of a grid on Cranfield's odd-numbered queries only, over the ranking above
 * (bench/search-quality.mjs). No document is embedded at search time by default: where the index
 * keeps no vectors (a corpus past `search.embed_up_to`), embedding the first results of each
 * search would cost tens of milliseconds apiece.
 */
export const DEFAULT_MEANING: MeaningPolicy = {
  depth: 10,
  fusionK: 30,
  weight: 1.5,
  feedbackDocs: 5,
  feedbackWeight: 2,
  embedCandidates: 0,
};

/**
 * A full-text index in its own SQLite file. Scores are FTS5's BM25 with field weights for the
 * query's words, then feedback terms scored over the best documents' own term counts; a search
 * by meaning then reorders the first results by their embeddings' likeness to the query's.
 */
export class SearchIndex {
  private readonly db: Database.Database;
  private readonly feedback: FeedbackRanking;
  private readonly meaning: MeaningRanking;
  private readonly vectors: StoredVectors;
  private count: number | undefined;
  private profile: (FacetCount & { n: number })[] | undefined;
  private version = -1;
  private readonly files: KeptFiles;
  private readonly generation: Database.Statement<[], { n: number }>;
  ranking: RankingOptions;
  /** Documents not linked by http(s) URLs that opening an earlier version's index removed (upgrade.ts). */
  readonly removedDocuments: number;

  constructor(file: string, ranking: Partial<RankingOptions> = {}) {
    const opened = openIndex(file);
    this.db = opened.db;
    this.removedDocuments = opened.removedDocuments;
    this.ranking = { ...DEFAULT_RANKING, ...ranking };
    this.files = new KeptFiles(this.db);
    this.feedback = new FeedbackRanking(this.db);
    this.vectors = new StoredVectors(this.db);
    this.meaning = new MeaningRanking(this.db, this.vectors);
    this.generation = this.db.prepare<[], { n: number }>('SELECT n FROM generation');
  }

  /** Adds documents in one transaction; a record already indexed is replaced. */
  add(documents: readonly SearchDocument[]): void {
    addDocuments(this.db, this.files, documents);
    this.refresh(true);
  }

  /** The best `RESULTS_LISTED` matching document ids with their scores, best first, ties by id (stable paging). */
  rank(request: SearchRequest, ranking: RankingOptions = this.ranking): RankedId[] {
    const clauses = parseQuery(request.query, request.language);
    if (clauses.length === 0) return [];
    this.refresh();
    // One OR query: bm25() sums its phrases' scores, each clause weighing the same, 1/n.
    const first = this.score(anyExpression(clauses), 1 / clauses.length, request, ranking);
    if (ranking.feedbackWeight <= 0 || ranking.feedbackDocs <= 0 || first.length === 0) return first;
    return this.feedback.reorder(first, clauses.length, ranking, this.documentCount());
  }

  /** Documents in the index, kept between searches until the index changes. */
  private documentCount(): number {
    this.count ??= (this.db.prepare('SELECT count(*) AS n FROM facets').get() as { n: number }).n;
    return this.count;
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
   * Forgets what was kept about the index when its documents changed: through this connection
   * (add) or another one, such as `switchyard search index` while the server runs, or another
   * thread's (schema.ts, `generation`).
   */
  private refresh(changed = false): void {
    const version = this.generation.get()!.n;
    if (!changed && version === this.version) return;
    this.version = version;
    this.count = undefined;
    this.profile = undefined;
    this.feedback.forget();
    this.meaning.forget();
  }

  /** A page of the ranking (`rank()`'s unless another is given), with its hits read. */
  search(
    request: SearchRequest,
    ranking: RankingOptions = this.ranking,
    ranked: RankedId[] = this.rank(request, ranking),
  ): SearchResult {
    const { start, number } = pageOf(request);
    const expression = anyExpression(parseQuery(request.query, request.language));
    const hits = ranked
      .slice(start, start + number)
      .map((hit, i) => hitOf(this.db, hit, start + i + 1, expression));
    let scores: Map<number, number> | undefined;
    const scoreOf = (id: number) => (scores ??= new Map(ranked.map((r) => [r.id, r.score]))).get(id);
    return { total: ranked.length, hits, scoreOf };
  }

  /**
   * A page of the ranking with its first results reordered by meaning (meaning.ts). A page past
   * them is the lexical ranking's: nothing there moves, and the query is not embedded.
   */
  async searchByMeaning(
    request: SearchRequest,
    policy: MeaningPolicy = DEFAULT_MEANING,
    ranking: RankingOptions = this.ranking,
  ): Promise<SearchResult> {
    const first = this.rank(request, ranking);
    const reordered =
      pageOf(request).start < policy.depth ? await this.reorderByMeaning(request, first, policy) : first;
    return this.search(request, ranking, reordered);
  }

  /** Whether any document has an embedding: whether a search by meaning embeds its query. */
  holdsEmbeddings(): boolean {
    return this.db.prepare('SELECT 1 FROM vectors LIMIT 1').get() !== undefined;
  }

  /** A ranking of this request (`rank()`'s) with its first results reordered by meaning. */
  reorderByMeaning(
    request: SearchRequest,
    first: RankedId[],
    policy: MeaningPolicy = DEFAULT_MEANING,
  ): Promise<RankedId[]> {
    return this.meaning.reorder(first, request.query, policy);
  }

  /**
   * Embeds the documents that have no vector yet and keeps their vectors, unless the index holds
   * more than `upTo` documents (embedding takes tens of milliseconds a document): answers how
   * many it embedded.
   */
  async embedDocuments(upTo: number, onProgress?: (embedded: number) => void): Promise<number> {
    this.refresh();
    if (this.documentCount() > upTo) return 0;
    return embedDocuments(this.vectors, onProgress);
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
    return best ? hitOf(this.db, best, 1, anyExpression(clauses)) : undefined;
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
      .map((match, i) => hitOf(this.db, match, i + 1, ''));
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

  /** Records that each scope searched its query, for its related searches later; one transaction. */
  remember(searches: readonly { scope: string; query: string }[]): void {
    this.db.transaction(() => {
      for (const { scope, query } of searches) rememberQuery(this.db, scope, query);
    })();
  }

  /** Earlier queries of the same scope sharing terms with this one, the closest and most asked first. */
  pastQueries(scope: string, query: string, count: number): string[] {
    return pastQueries(this.db, scope, query, count);
  }

  /** Words that several of the given hits share beyond the query's own, most shared first. */
  cooccurring(hits: readonly SearchHit[], request: SearchRequest, count: number): string[] {
    return cooccurring(hits, request, count);
  }

  stats(): IndexStats {
    const kinds = this.db
      .prepare<[], { kind: Kind; n: number }>('SELECT kind, count(*) AS n FROM facets GROUP BY kind')
      .all();
    const one = (sql: string) => (this.db.prepare(sql).get() as { n: number }).n;
    return {
      documents: kinds.reduce((sum, row) => sum + row.n, 0),
      byKind: Object.fromEntries(kinds.map((row) => [row.kind, row.n])),
      embedded: one('SELECT count(*) AS n FROM vectors'),
      sites: one('SELECT count(DISTINCT site) AS n FROM documents'),
      pastQueries: one('SELECT count(*) AS n FROM queries'),
      bytes: one('SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()'),
    };
  }

  close(): void {
    this.db.close();
  }

  private score(
    expression: string,
    weight: number,
    request: SearchRequest,
    ranking: RankingOptions,
  ): RankedId[] {
    const filter = this.filter(request);
    // SQLite keeps the best rows as it scores them (a sorter bounded by the limit): every match is
    // still scored, but only the listed ones reach JavaScript.
    const rows = this.db
      .prepare<unknown[], [number, number]>(
        `SELECT fts.rowid AS id, -bm25(fts, ?, ?) AS score FROM fts${filter.join} WHERE fts MATCH ?${filter.sql}
         ORDER BY score DESC, id LIMIT ${RESULTS_LISTED}`,
      )
      .raw(true)
      .all(ranking.titleWeight, ranking.bodyWeight, expression, ...filter.params);
    return rows.map(([id, score]) => ({ id, score: weight * score }));
  }
}

/** Where a request's page starts in the ranking, and how many results it holds. */
function pageOf(request: SearchRequest): { start: number; number: number } {
  const number = Math.max(1, Math.floor(request.number ?? 10));
  const page = Math.max(1, Math.floor(request.page ?? 1));
  return { start: (page - 1) * number, number };
}
