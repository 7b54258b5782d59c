/**
 * A search channel to a self-hosted SearXNG through its JSON API (`GET /search?format=json`).
 * SearXNG has no page size: a page of it holds whatever its engines found (often 10 to 30
 * results). So the results of one page of ours are gathered from its pages 1, 2 … in order,
 * without duplicates, until there are enough or a page comes back empty, and at most
 * MAX_UPSTREAM_PAGES of them per search (each with the channel's time limit): that bounds what
 * one search costs, and pages deeper than that come back short or empty.
 *
 * SearXNG's time ranges start at a day. The last hour is asked as the last day, and dated results
 * older than an hour are dropped here; a span of days asks for no range and keeps only the results
 * dated inside it. An `api_key`, when set, goes as a bearer token (for an instance behind an
 * authenticating proxy).
 */
import { UpstreamFailure } from '../../router.js';
import { callUpstream, jsonOf } from '../../upstream.js';
import { instantOf, parseRange, RECENT_MS, spanOf, type Recent, type SearchRange } from '../range.js';
import { collectorFor, knowledgeGraphOf, relatedSearchesOf } from './searxng-results.js';
import { compact, listOf, objectOf, textOf, type Json } from '../../json-readers.js';
import type { SearchType, SerpBackend, SerpChannel, SerpQuery, SerpResult } from '../types.js';
import type { StopSignal } from '../../stop-signal.js';

/** Pages of SearXNG fetched for one search at most: about the first hundred results. */
export const MAX_UPSTREAM_PAGES = 5;

const CATEGORIES: Record<SearchType, string> = {
  search: 'general',
  news: 'news',
  images: 'images',
  videos: 'videos',
  places: 'map',
  maps: 'map',
};

const TIME_RANGES: Record<Recent, string> = { h: 'day', d: 'day', w: 'week', m: 'month', y: 'year' };

function dateOf(result: Json): number | undefined {
  const text = textOf(result.publishedDate);
  return text === undefined ? undefined : instantOf(text);
}

/** Which results the range admits, for the ranges SearXNG cannot express itself. */
function admitted(range: SearchRange | undefined, now: number): (result: Json) => boolean {
  if (range === undefined || ('recent' in range && range.recent !== 'h')) return () => true;
  // The last hour: results without a date cannot be judged and stay.
  if ('recent' in range) return (result) => (dateOf(result) ?? now) >= now - RECENT_MS.h;
  const { start, end } = spanOf(range);
  return (result) => {
    const at = dateOf(result);
    return at !== undefined && at >= start && at < end;
  };
}

export class Searxng implements SerpBackend {
  private readonly base: string;

  constructor(private readonly channel: SerpChannel) {
    this.base = (channel.base_url ?? '').replace(/\/+$/, '');
  }

  async search(query: SerpQuery, signal: StopSignal): Promise<SerpResult> {
    const range = parseRange(query.range);
    const admits = admitted(range, Date.now());
    const collected = collectorFor(query.type);
    const seen = new Set<string>();
    const offset = (query.page - 1) * query.number;
    const wanted = offset + query.number;
    let first: Json | undefined;
    for (let pageno = 1; pageno <= MAX_UPSTREAM_PAGES && collected.size < wanted; pageno += 1) {
      const answer = await this.page(query, range, pageno, signal);
      first ??= answer;
      const results = listOf(answer.results);
      if (results.length === 0) break;
      for (const result of results) {
        const url = textOf(result.url);
        if (url === undefined || seen.has(url) || !admits(result)) continue;
        seen.add(url);
        collected.add(result, url);
      }
    }
    return compact({
      ...collected.page(offset, query.number),
      knowledge_graph: knowledgeGraphOf(first?.infoboxes),
      related_searches: relatedSearchesOf(first?.suggestions),
    });
  }

  private async page(
    query: SerpQuery,
    range: SearchRange | undefined,
    pageno: number,
    signal: StopSignal,
  ): Promise<Json> {
    const params = new URLSearchParams({
      q: query.query,
      format: 'json',
      pageno: String(pageno),
      language: query.language,
      categories: CATEGORIES[query.type],
    });
    if (range !== undefined && 'recent' in range) params.set('time_range', TIME_RANGES[range.recent]);
    const response = await callUpstream(
      this.channel,
      `${this.base}/search?${params}`,
      {
        method: 'GET',
        headers: {
          accept: 'application/json',
          ...(this.channel.api_key ? { authorization: `Bearer ${this.channel.api_key}` } : {}),
        },
      },
      signal,
    );
    const answer = objectOf(await jsonOf(this.channel, response));
    if (!Array.isArray(answer?.results))
      throw new UpstreamFailure(`${this.channel.name} sent an answer without results`);
    return answer;
  }
}
