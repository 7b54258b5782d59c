/**
 * The local search index: FTS5 with BM25 field weights, query feedback, CJK characters, and the
 * first results reordered by meaning (sentence embeddings).
 */
export {
  DEFAULT_MEANING,
  DEFAULT_RANKING,
  IndexVersionError,
  RESULTS_LISTED,
  SearchIndex,
  type IndexStats,
} from './search-index.js';
export type { MeaningPolicy } from './meaning.js';
export { EmbeddingModelMissing } from './embedder.js';
export type {
  DateRange,
  KeptFile,
  Kind,
  RankedId,
  RankingOptions,
  SearchDocument,
  SearchHit,
  SearchRequest,
  SearchResult,
} from './types.js';
export { KINDS } from './types.js';
export { keptLink } from './files.js';
export { isWebUrl } from './records.js';
