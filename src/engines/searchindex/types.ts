/** What the local search engine stores, is asked and answers. No HTTP, no service database. */

/**
 * The kinds of record the index holds, one per result member: pages (organic results), news,
 * images, videos, places, entities (knowledge graph) and questions (people also ask).
 */
export const KINDS = ['page', 'news', 'image', 'video', 'place', 'entity', 'question'] as const;
export type Kind = (typeof KINDS)[number];

/** A file indexed from a folder, as the index keeps it for a server to hand out. */
export interface KeptFile {
  /** Its media type, charset included: `text/html; charset=utf-8`. */
  type: string;
  /** Its text, as read and indexed. */
  content: string;
}

export interface SearchDocument {
  /**
   * The document's address; with kind (and a question's title) it names the record. A link that
   * starts with `/` is a kept file's, `/<root>/<path>`: its folder's root (SearchIndex.root) and
   * its path below that folder; the index keeps the file, and a server links it under its own
   * address.
   */
  link: string;
  kind?: Kind;
  /** The heading; for a question, the question; for an entity, its name. */
  title: string;
  /** The body text searched and snippeted. */
  text: string;
  /** ISO 8601 date (YYYY-MM-DD or a full timestamp); compared as text, so keep one format. */
  date?: string;
  /** ISO 639-1 code, e.g. "en"; records without one match every language. */
  language?: string;
  /** ISO 3166-1 alpha-2 code, e.g. "DE"; records without one match every country. */
  country?: string;
  image_url?: string;
  /** Who published it (news, images, videos); defaults to the link's host in results. */
  source?: string;
  /** The kind's other fields as given (duration, address, rating, attributes …). */
  fields?: Record<string, unknown>;
  /** The file itself, kept under the link (`/<root>/<path>`) for a server to hand out. */
  file?: KeptFile;
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
  /** Kinds searched; all when absent. */
  kinds?: readonly Kind[];
  /** Also records of other kinds that carry an image (an image search over pages). */
  withImages?: boolean;
}

export interface SearchHit {
  id: number;
  /** 1-based rank over the whole result list, continuous across pages. */
  position: number;
  score: number;
  kind: Kind;
  link: string;
  title: string;
  snippet: string;
  /** The stored body text (a question's answer, an entity's description). */
  text: string;
  date: string | null;
  language: string | null;
  country: string | null;
  site: string;
  image_url: string | null;
  source: string | null;
  fields: Record<string, unknown>;
}

export interface SearchResult {
  total: number;
  hits: SearchHit[];
  /** The score of any document the search found (undefined: it did not match). */
  scoreOf(id: number): number | undefined;
}

/** How scores are computed; the defaults are the values tuned on Cranfield's odd queries. */
export interface RankingOptions {
  /** bm25() column weights: a title hit counts this many times a body hit. */
  titleWeight: number;
  bodyWeight: number;
  /** Pseudo-relevance feedback (RM3-style): top documents read, expansion terms added. */
  feedbackDocs: number;
  feedbackTerms: number;
  /**
   * How unequally the top documents vote: each by exp(sharpness × its score summed over the
   * query's words); 0 gives every one of them the same vote.
   */
  feedbackSharpness: number;
  /** Weight of the whole expansion relative to the original query's; 0 turns feedback off. */
  feedbackWeight: number;
  /** How many of the first results feedback reorders. */
  feedbackDepth: number;
}

export interface RankedId {
  id: number;
  score: number;
}
