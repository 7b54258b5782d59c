/**
 * Embedding the documents of an index at indexing time, for ranking by meaning: every document
 * without a vector, in batches, each batch kept in one transaction as it is made, so that an
 * interrupted run keeps what it made and the next run goes on from there.
 */
import { embed, embeddedText } from './embedder.js';
import type { StoredVectors } from './vectors.js';

const BATCH = 64;

/** Embeds every document without a vector; answers how many it embedded. */
export async function embedDocuments(
  vectors: StoredVectors,
  onProgress?: (embedded: number) => void,
): Promise<number> {
  let embedded = 0;
  for (let batch = vectors.missing(BATCH); batch.length > 0; batch = vectors.missing(BATCH)) {
    const made = await embed(batch.map((doc) => embeddedText(doc.title, doc.text)));
    vectors.put(batch.map((doc, i) => [doc.id, made[i]!] as const));
    embedded += batch.length;
    onProgress?.(embedded);
  }
  return embedded;
}
