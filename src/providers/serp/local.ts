/**
 * The local search index as a search provider: each `type` reads its kind of record, and a web
 * search adds what surrounds the organic results: the entity the query names, questions people
 * ask about it, sitelinks, and related searches from the token's past queries and from words the
 * found pages share.
 *
 * Files the index keeps are linked at answer time, under this server's public address and their
 * folder's key: an index file copied to another node, or moved behind another address, links them
 * where they are served from now. Nothing but http(s) addresses is handed out: whatever else an
 * index made by an earlier version may hold (`file:`, `javascript:`) is left out of the answer.
 */
import {
  DEFAULT_MEANING,
  isWebUrl,
  SearchIndex,
  type MeaningPolicy,
  type KeptFile,
  type Kind,
  type SearchHit,
  type SearchRequest,
  type SearchResult,
} from '../../engines/searchindex/index.js';
import { dateRange } from './range.js';
import type { SearchType, SerpBackend, SerpQuery, SerpResult } from './types.js';
import type { StopSignal } from '../stop-signal.js';

const KINDS_OF: Readonly<Record<SearchType, readonly Kind[]>> = {
  search: ['page'],
  news: ['news'],
  images: ['image'],
  videos: ['video'],
  places: ['place'],
  maps: ['place'],
};
const QUESTIONS = 4;
const SITELINKS = 4;
/** How many results of a page, from the top, may carry sitelinks. */
const SITELINKED = 3;
const RELATED = 8;

type Fields = Record<string, unknown>;
const text = (fields: Fields, name: string) =>
  typeof fields[name] === 'string' ? (fields[name] as string) : undefined;
const webUrl = (fields: Fields, name: string) => {
  const value = text(fields, name);
  return value && isWebUrl(value) ? value : undefined;
};
const num = (fields: Fields, name: string) =>
  typeof fields[name] === 'number' ? (fields[name] as number) : undefined;

/** Only the members that have a value: the contract's optional fields are absent, not null. */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null)) as T;
}

/** Who published a hit: as recorded, else its link's host (this server's, for a kept file). */
function sourceOf(hit: SearchHit): string {
  const host = URL.canParse(hit.link) ? new URL(hit.link).host : '';
  return hit.source ?? (host ? host.replace(/^www\./, '') : hit.site);
}

/** Where the server hands out the files the index keeps: `<this>/<key>/<path>`. */
export const KEPT_FILES_PATH = '/search/files';

export interface LocalIndexOptions {
  /** Keep each scope's queries, for its related searches. */
  rememberQueries: boolean;
  /** The server's public address (`public_base_url`), which kept files are linked under. */
  publicBaseUrl: string;
  /** Reorder the first results by meaning (`search.semantic_reranking`). */
  semanticReranking: boolean;
  /** Of the first results without a kept embedding, how many a search embeds (`search.embed_candidates`). */
  embedCandidates: number;
}

/** A search answered: its query, how many hits it found, and who asked. */
export interface Searched {
  query: SerpQuery;
  found: number;
  scope: string | undefined;
}

export class LocalIndex implements SerpBackend {
  private readonly meaning: MeaningPolicy;

  constructor(
    private readonly index: SearchIndex,
    private readonly options: LocalIndexOptions,
  ) {
    this.meaning = { ...DEFAULT_MEANING, embedCandidates: options.embedCandidates };
  }

  async search(query: SerpQuery, _signal: StopSignal, scope?: string): Promise<SerpResult> {
    const { result, found } = await this.answer(query, scope);
    this.remember([{ query, found, scope }]);
    return result;
  }

  /** The answer to `query` and how many hits it found, reading the index and writing nothing. */
  async answer(query: SerpQuery, scope?: string): Promise<{ result: SerpResult; found: number }> {
    const request: SearchRequest = {
      query: query.query,
      page: query.page,
      number: query.number,
      range: dateRange(query.range),
      language: query.language,
      country: query.country,
      kinds: KINDS_OF[query.type],
      withImages: query.type === 'images',
    };
    const searched = this.options.semanticReranking
      ? await this.index.searchByMeaning(request, this.meaning)
      : this.index.search(request);
    const found = { ...searched, hits: this.linked(searched.hits) };
    return { result: this.shape(query.type, found, request, scope), found: found.hits.length };
  }

  /** Whether a search may embed text: ranking by meaning is on, and documents have embeddings or may get them. */
  embeds(): boolean {
    return (
      this.options.semanticReranking && (this.options.embedCandidates > 0 || this.index.holdsEmbeddings())
    );
  }

  /** Keeps the queries that found something among their scopes' past queries, for related searches. */
  remember(searches: readonly Searched[]): void {
    if (!this.options.rememberQueries) return;
    const kept = searches.flatMap(({ query, found, scope }) =>
      scope && found > 0 ? [{ scope, query: query.query }] : [],
    );
    if (kept.length > 0) this.index.remember(kept);
  }

  async close(): Promise<void> {
    this.index.close();
  }

  /** A kept file by its folder's key and its path below it (below KEPT_FILES_PATH); undefined unless both fit. */
  keptFile(key: string, path: string): KeptFile | undefined {
    return this.index.file(key, path);
  }

  /**
   * Hits with their links as clients open them: a kept file's becomes its address here. A hit
   * linked by anything else than http(s) is left out, an image that is not is dropped.
   */
  private linked(hits: readonly SearchHit[]): SearchHit[] {
    return hits.flatMap((hit) => {
      const kept = this.index.fileAddress(hit.link);
      const path = kept?.path.split('/').map(encodeURIComponent).join('/');
      const link = kept ? `${this.options.publicBaseUrl}${KEPT_FILES_PATH}/${kept.key}/${path}` : hit.link;
      if (!isWebUrl(link)) return [];
      return [{ ...hit, link, image_url: hit.image_url && isWebUrl(hit.image_url) ? hit.image_url : null }];
    });
  }

  private shape(type: SearchType, found: SearchResult, request: SearchRequest, scope?: string): SerpResult {
    const hits = found.hits;
    switch (type) {
      case 'search':
        return this.web(found, request, scope);
      case 'news':
        return {
          news: hits.map((hit) =>
            defined({
              title: hit.title,
              link: hit.link,
              snippet: hit.snippet,
              date: hit.date ?? undefined,
              source: sourceOf(hit),
              image_url: hit.image_url ?? undefined,
              position: hit.position,
            }),
          ),
        };
      case 'images':
        return {
          // An image whose address could not be handed out is no image result.
          images: hits.flatMap((hit) =>
            hit.image_url
              ? [
                  {
                    title: hit.title,
                    image_url: hit.image_url,
                    link: hit.link,
                    source: sourceOf(hit),
                    position: hit.position,
                  },
                ]
              : [],
          ),
        };
      case 'videos':
        return {
          videos: hits.map((hit) =>
            defined({
              title: hit.title,
              link: hit.link,
              snippet: hit.snippet,
              image_url: hit.image_url ?? undefined,
              duration: text(hit.fields, 'duration'),
              source: sourceOf(hit),
              date: hit.date ?? undefined,
              position: hit.position,
            }),
          ),
        };
      case 'places':
      case 'maps':
        return { [type]: hits.map((hit) => place(hit)) };
    }
  }

  private web(found: SearchResult, request: SearchRequest, scope?: string): SerpResult {
    const hits = found.hits;
    const shown = new Set(hits.map((hit) => hit.id));
    const sites = new Set<string>();
    const organic = hits.map((hit, i) => {
      // A top result lists its site's other pages on the query, once per site.
      const first = i < SITELINKED && !sites.has(hit.site);
      sites.add(hit.site);
      const sitelinks = first ? this.linked(this.index.sitelinks(hit, found, shown, SITELINKS)) : [];
      const attributes = hit.fields.attributes as Record<string, string> | undefined;
      return defined({
        link: hit.link,
        title: hit.title,
        snippet: hit.snippet,
        position: hit.position,
        date: hit.date ?? undefined,
        sitelinks:
          sitelinks.length > 0 ? sitelinks.map((s) => ({ link: s.link, title: s.title })) : undefined,
        image_url: hit.image_url ?? undefined,
        attributes,
      });
    });
    const result: SerpResult = { organic };
    const firstPage = (request.page ?? 1) === 1;
    // An index without entities or questions skips their searches.
    const named = firstPage && this.index.holds('entity') > 0 ? this.index.entity(request) : undefined;
    const [entity] = named ? this.linked([named]) : [];
    if (entity) result.knowledge_graph = knowledgeGraph(entity);
    if (firstPage && this.index.holds('question') > 0) {
      const questions = this.linked(
        this.index.search(
          { ...request, kinds: ['question'], page: 1, number: QUESTIONS, range: undefined },
          { ...this.index.ranking, feedbackWeight: 0 },
        ).hits,
      );
      if (questions.length > 0)
        result.people_also_ask = questions.map((q) => ({
          question: q.title,
          snippet: q.text,
          title: text(q.fields, 'title') ?? q.title,
          link: q.link,
        }));
    }
    const related = this.related(hits, request, scope);
    if (related.length > 0) result.related_searches = related.map((query) => ({ query }));
    return result;
  }

  /** The token's own earlier queries on the topic first, then the query refined by shared words. */
  private related(hits: SearchHit[], request: SearchRequest, scope?: string): string[] {
    const past = scope ? this.index.pastQueries(scope, request.query, RELATED) : [];
    const base = request.query.trim().replace(/\s+/g, ' ').toLowerCase();
    const refined = this.index.cooccurring(hits, request, RELATED).map((word) => `${base} ${word}`);
    return [...new Set([...past, ...refined])].slice(0, RELATED);
  }
}

function place(hit: SearchHit) {
  const f = hit.fields;
  return defined({
    title: hit.title,
    address: text(f, 'address'),
    latitude: num(f, 'latitude'),
    longitude: num(f, 'longitude'),
    rating: num(f, 'rating'),
    rating_count: num(f, 'rating_count'),
    category: text(f, 'category'),
    phone_number: text(f, 'phone_number'),
    website: webUrl(f, 'website'),
    position: hit.position,
  });
}

function knowledgeGraph(entity: SearchHit): NonNullable<SerpResult['knowledge_graph']> {
  const f = entity.fields;
  return defined({
    type: text(f, 'entity_type') ?? 'entity',
    title: entity.title,
    image_url: entity.image_url ?? undefined,
    attributes: f.attributes as Record<string, string> | undefined,
    description: entity.text || undefined,
    description_link: webUrl(f, 'description_link') ?? entity.link,
    description_source: text(f, 'description_source') ?? sourceOf(entity),
  });
}
