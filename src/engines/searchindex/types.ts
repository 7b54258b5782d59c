/** What the local search engine stores, is asked and answers. No HTTP, no service database. */
export interface SearchDocument {
  /** The document's address; adding the same link again replaces the earlier document. */
  link: string;
  title: string;
  text: string;
  /** ISO 8601 date (YYYY-MM-DD or a full timestamp); compared as text, so keep one format. */
  date?: string;
  /** ISO 639-1 code, e.g. "en". */
  language?: string;
  /** ISO 3166-1 alpha-2 code, e.g. "DE". */
  country?: string;
  type?: string;
  image_url?: string;
}

export interface DateRange {
  /** Inclusive lower bound, ISO 8601. */
  from?: string;
  /** Inclusive upper bound, ISO 8601; a bare date includes that whole day. */
  to?: string;
}

export interface SearchRequest {
  query: string;
  /** 1-based page number. */
  page?: number;
  /** Results per page. */
  number?: number;
  range?: DateRange;
  language?: string;
  country?: string;
}

export interface SearchHit {
  id: number;
  /** 1-based rank over the whole result list, continuous across pages. */
  position: number;
  score: number;
  link: string;
  title: string;
  snippet: string;
  date: string | null;
  language: string | null;
  country: string | null;
  type: string | null;
  image_url: string | null;
}

export interface SearchResult {
  total: number;
  hits: SearchHit[];
}

/** How scores are computed; the defaults are the values tuned on Cranfield's odd queries. */
export interface RankingOptions {
  /** bm25() column weights: a title hit counts this many times a body hit. */
  titleWeight: number;
  bodyWeight: number;
  /** Pseudo-relevance feedback (RM3-style): top documents read, expansion terms added. */
  feedbackDocs: number;
  feedbackTerms: number;
  /** Weight of the whole expansion relative to one original query term; 0 turns feedback off. */
  feedbackWeight: number;
}

export interface RankedId {
  id: number;
  score: number;
}
