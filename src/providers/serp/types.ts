/**
 * What search providers are asked and answer. A query is the validated body of `/serp/web` with
 * its defaults applied; a result is the contract's Search result (snake_case members).
 */
import type { Static } from '@sinclair/typebox';
import type { SEARCH_TYPES, SerpResponse } from '../../contract/serp.js';
import type { StopSignal } from '../stop-signal.js';

export type SearchType = (typeof SEARCH_TYPES)[number];
export type SerpResult = Static<typeof SerpResponse>;

export interface SerpQuery {
  query: string;
  type: SearchType;
  /** 1-based. */
  page: number;
  /** Results per page, 1–100. */
  number: number;
  /** As sent: h, d, w, m, y, qdr:h … or YYYY-MM-DD..YYYY-MM-DD; absent for unlimited. */
  range?: string;
  /** Two-letter country code, upper case. */
  country: string;
  /** Language code as sent, e.g. en or zh-CN. */
  language: string;
}

/** One provider of search results: the local index or an upstream channel. */
export interface SerpBackend {
  /** `scope` names who asks (a token), for providers that keep per-client history. */
  search(query: SerpQuery, signal: StopSignal, scope?: string): Promise<SerpResult>;
  close?(): Promise<void>;
}

/** The configuration a search channel to an upstream is built from. */
export interface SerpChannel {
  name: string;
  base_url?: string;
  api_key?: string;
  timeout_seconds: number;
}
