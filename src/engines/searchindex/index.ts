/** The local search index: FTS5 with BM25 field weights, query feedback and CJK characters. */
export { DEFAULT_RANKING, SearchIndex } from './search-index.js';
export type {
  DateRange,
  RankedId,
  RankingOptions,
  SearchDocument,
  SearchHit,
  SearchRequest,
  SearchResult,
} from './types.js';
