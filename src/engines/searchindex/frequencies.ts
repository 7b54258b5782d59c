/**
 * How many documents hold a term, for scoring feedback terms (reranking.ts). Counting reads the
 * term's whole posting list (fts5vocab), and feedback terms are the common ones: on a million
 * documents a term in half of them costs tens of milliseconds, and a search asks for 40 terms.
 * So on a large index a common term's count is estimated from a sample of documents, at ids
 * drawn by a generator of fixed seed (the same sample, and so the same ranking, every time; not
 * evenly spaced, which would follow any period in the order documents were added), made once
 * until the index changes; a term rare in the sample is counted, which reads a short list. On a
 * small index every count is exact.
 */
import type Database from 'better-sqlite3';
import { seeded } from '../random.js';
import type { Stemmer } from './stemmer.js';

/** From this many documents on, common terms are estimated. */
export const ESTIMATED_FROM = 100_000;
/** Documents in the sample: read and stemmed once per change of the index (tens of milliseconds). */
const SAMPLE_SIZE = 2_000;
/**
 * A term held by at least this many sampled documents is estimated, typically within a quarter
 * (1/√16) of its count, which moves its idf by about 0.2; such a term is held by about 0.8 % of
 * the index or more, so that counting it would read thousands of postings.
 */
const SAMPLE_HITS = 16;
/** The sample generator's seed: any fixed number. */
const SEED = 20_261_129;
/** Counts kept at most; beyond, the memory is started afresh. */
const COUNTS_KEPT = 100_000;

export class DocumentFrequencies {
  private readonly counts = new Map<string, number>();
  private sample: { size: number; holding: Map<string, number> } | undefined;
  private readonly count: Database.Statement<[string], { doc: number }>;
  private readonly lastId: Database.Statement<[], { id: number | null }>;
  private readonly atOrAfter: Database.Statement<[number], { id: number; title: string; text: string }>;

  /** `estimatedFrom`: from how many documents on common terms are estimated. */
  constructor(
    db: Database.Database,
    private readonly stemmer: Stemmer,
    private readonly estimatedFrom = ESTIMATED_FROM,
  ) {
    this.count = db.prepare('SELECT doc FROM fts_vocabulary WHERE term = ?');
    this.lastId = db.prepare('SELECT max(id) AS id FROM documents');
    this.atOrAfter = db.prepare('SELECT id, title, text FROM documents WHERE id >= ? ORDER BY id LIMIT 1');
  }

  /** Forgets counts and sample: the index changed. */
  forget(): void {
    this.counts.clear();
    this.sample = undefined;
  }

  /** How many of the index's `documents` hold `term` (a stemmed token): counted, or estimated when common. */
  of(term: string, documents: number): number {
    if (documents >= this.estimatedFrom) {
      const sample = (this.sample ??= this.draw());
      const held = sample.holding.get(term) ?? 0;
      if (held >= SAMPLE_HITS) return Math.round((held / sample.size) * documents);
    }
    let counted = this.counts.get(term);
    if (counted === undefined) {
      counted = this.count.get(term)?.doc ?? 0;
      if (this.counts.size >= COUNTS_KEPT) this.counts.clear();
      this.counts.set(term, counted);
    }
    return counted;
  }

  /** The documents at drawn ids (the next one where an id is gone), and how many hold each term. */
  private draw(): { size: number; holding: Map<string, number> } {
    const last = this.lastId.get()?.id ?? 0;
    const next = seeded(SEED);
    const ids = new Set<number>();
    const texts: string[] = [];
    for (let i = 0; i < SAMPLE_SIZE; i += 1) {
      const row = this.atOrAfter.get(1 + Math.floor(next() * last));
      if (!row || ids.has(row.id)) continue;
      ids.add(row.id);
      texts.push(`${row.title}\n${row.text}`);
    }
    const holding = new Map<string, number>();
    for (const terms of this.stemmer.count(texts))
      for (const term of terms.keys()) holding.set(term, (holding.get(term) ?? 0) + 1);
    return { size: Math.max(1, texts.length), holding };
  }
}
