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
