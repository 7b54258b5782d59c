/**
 * The third pass of a ranking: the first results reordered by meaning (fusion.ts), from the
 * embeddings the index keeps for its documents (vectors.ts) or, where it keeps none, from
 * embeddings made at search time for at most `embedCandidates` of them and kept in memory.
 * A search whose first results have no embedding at all is left as it is, without embedding the
 * query, so that an index without vectors never loads the model.
 */
import type Database from 'better-sqlite3';
import { embed, embeddedText } from './embedder.js';
import { fuse, withFeedback, type MeaningOptions } from './fusion.js';
import type { RankedId } from './types.js';
import type { StoredVectors } from './vectors.js';

/** Embeddings made at search time kept at most (2 KB each); beyond, the oldest go first. */
const CANDIDATES_KEPT = 10_000;
/** Query embeddings kept at most: a query asked again, or for its next page, costs nothing. */
const QUERIES_KEPT = 1_000;

export interface MeaningPolicy extends MeaningOptions {
  /** How many of the first results without a kept embedding a search embeds; 0: none. */
  embedCandidates: number;
}

export class MeaningRanking {
  private readonly candidates = new Map<number, Float32Array>();
  private readonly queries = new Map<string, Float32Array>();
  private readonly read: Database.Statement<[number], { title: string; text: string }>;

  constructor(
    db: Database.Database,
    private readonly stored: StoredVectors,
  ) {
    this.read = db.prepare('SELECT title, text FROM documents WHERE id = ?');
  }

  /** Forgets the embeddings made at search time: the index changed, and ids may name other documents. */
  forget(): void {
    this.candidates.clear();
  }

  async reorder(first: RankedId[], query: string, policy: MeaningPolicy): Promise<RankedId[]> {
    const head = first.slice(0, Math.max(policy.depth, policy.feedbackDocs));
    if (head.length < 2 || policy.weight <= 0) return first;
    const vectors = this.stored.of(head.map((hit) => hit.id));
    for (const hit of head) {
      const kept = this.candidates.get(hit.id);
      if (kept && !vectors.has(hit.id)) vectors.set(hit.id, kept);
    }
    const missing = head.filter((hit) => !vectors.has(hit.id)).slice(0, policy.embedCandidates);
    if (missing.length > 0) {
      const texts = missing.map((hit) => this.read.get(hit.id)!);
      const made = await embed(texts.map((doc) => embeddedText(doc.title, doc.text)));
      missing.forEach((hit, i) => {
        vectors.set(hit.id, made[i]!);
        keep(this.candidates, hit.id, made[i]!, CANDIDATES_KEPT);
      });
    }
    if (vectors.size === 0) return first;
    const asked = await this.queryVector(query);
    return fuse(first, withFeedback(asked, first, vectors, policy), vectors, policy);
  }

  private async queryVector(query: string): Promise<Float32Array> {
    let vector = this.queries.get(query);
    if (!vector) {
      [vector] = (await embed([query])) as [Float32Array];
      keep(this.queries, query, vector, QUERIES_KEPT);
    }
    return vector;
  }
}

/** Adds an entry to a memory of bounded size, the oldest entry leaving first. */
function keep<K, V>(memory: Map<K, V>, key: K, value: V, limit: number): void {
  if (memory.size >= limit) memory.delete(memory.keys().next().value as K);
  memory.set(key, value);
}
