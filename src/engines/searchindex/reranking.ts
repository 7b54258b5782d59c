/**
 * The second pass of a ranking: the best results reordered by the expansion terms of the top
 * few (feedback.ts), each term scored as FTS5's bm25() scores the query's words, over the
 * documents' own stemmed term counts (stemmer.ts).
 */
import type Database from 'better-sqlite3';
import { expansionTerms } from './feedback.js';
import { DocumentFrequencies } from './frequencies.js';
import { Stemmer } from './stemmer.js';
import { STOP_WORDS } from './stopwords.js';
import type { RankedId, RankingOptions } from './types.js';

/** BM25's usual constants, as FTS5's bm25() uses them, for the feedback terms scored here. */
const BM25_K1 = 1.2;
const BM25_B = 0.75;

/** A document's stemmed terms, per column, and its length as bm25() counts it. */
interface TermVector {
  tokens: number;
  title: Map<string, number>;
  body: Map<string, number>;
}

export class FeedbackRanking {
  private readonly stemmer: Stemmer;
  private readonly stopStems: ReadonlySet<string>;
  private readonly frequencies: DocumentFrequencies;
  private readonly read: Database.Statement<
    [number],
    { id: number; title: string; text: string; tokens: number }
  >;

  constructor(db: Database.Database) {
    this.read = db.prepare('SELECT id, title, text, tokens FROM documents WHERE id = ?');
    this.stemmer = new Stemmer(db);
    this.frequencies = new DocumentFrequencies(db, this.stemmer);
    // The stop words as the tokenizer stems them ("this" → "thi"), to skip in feedback.
    this.stopStems = this.stemmer.terms(
      Object.values(STOP_WORDS)
        .flatMap((set) => [...set])
        .join(' '),
    );
  }

  /** Forgets the document frequencies kept: the index changed. */
  forget(): void {
    this.frequencies.forget();
  }

  /**
   * Reorders the best `feedbackDepth` results by the expansion terms of the top few (RM3-style),
   * each scored as bm25() scores the query's words: column weights, BM25 over each document's
   * own term counts. The original query keeps weight 1 against the expansion's
   * `feedbackWeight`. Cost follows the depth, not the index: on a large index a common
   * expansion term would otherwise mean reading its whole posting list; on Cranfield, scoring
   * the whole index instead ranks as reordering the first hundred does. Results below the depth
   * keep their order; they were behind already, and feedback only adds to scores, so they stay
   * behind. It never brings in a document that lacks every query word. `documents` is how many
   * the index holds.
   */
  reorder(first: RankedId[], clauses: number, ranking: RankingOptions, documents: number): RankedId[] {
    const top = first.slice(0, ranking.feedbackDocs);
    const topVectors = this.termVectors(top.map((hit) => hit.id));
    const terms = expansionTerms(
      // Scores summed over the query's words, as a log-likelihood is (the first pass averages them).
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
    const idf = terms.map(({ term }) => {
      const df = this.frequencies.of(term, documents);
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

  /** Stemmed term counts of some documents, per column: of every term, or of the `only` ones. */
  private termVectors(ids: readonly number[], only?: ReadonlySet<string>): Map<number, TermVector> {
    const docs = ids.flatMap((id) => this.read.get(id) ?? []);
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
