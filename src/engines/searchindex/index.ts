/** The local search index: FTS5 with BM25 field weights, query feedback and CJK characters. */
export { DEFAULT_RANKING, IndexVersionError, SearchIndex, type IndexStats } from './search-index.js';
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
