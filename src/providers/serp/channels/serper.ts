/**
 * A search channel to a Serper.dev-style Google search API: one POST per search to the endpoint
 * of its type, the key in `X-API-KEY`, the page and its size passed through (`page`, `num`), the
 * range as Google's `tbs`. The camelCase answer becomes the contract's snake_case result; what the
 * contract has no member for (searchParameters, credits, cid, image sizes …) is dropped.
 */
import { UpstreamFailure } from '../../router.js';
import { callUpstream, jsonOf } from '../../upstream.js';
import { parseRange, type SearchRange } from '../range.js';
import {
  compact,
  integerOf,
  listOf,
  numberOf,
  objectOf,
  textOf,
  textRecordOf,
  type Json,
} from '../../json-readers.js';
import { numbered, type ItemOf } from '../shape.js';
import type { SearchType, SerpBackend, SerpChannel, SerpQuery, SerpResult } from '../types.js';
import type { StopSignal } from '../../stop-signal.js';

export const SERPER_URL = 'https://google.serper.dev';

/** Google's date filter: `qdr:` for a recent period, `cdr:` with US-style dates for a span. */
function tbsOf(range: SearchRange | undefined): string | undefined {
  if (range === undefined) return undefined;
  if ('recent' in range) return `qdr:${range.recent}`;
  const us = (day: string) => `${day.slice(5, 7)}/${day.slice(8, 10)}/${day.slice(0, 4)}`;
  return `cdr:1,cd_min:${us(range.from)},cd_max:${us(range.to)}`;
}

function organic(o: Json): Omit<ItemOf<'organic'>, 'position'> | undefined {
  const link = textOf(o.link);
  const title = textOf(o.title);
  if (link === undefined || title === undefined) return undefined;
  const sitelinks = listOf(o.sitelinks).flatMap((s) => {
    const [sLink, sTitle] = [textOf(s.link), textOf(s.title)];
    return sLink === undefined || sTitle === undefined ? [] : [{ link: sLink, title: sTitle }];
  });
  return compact({
    link,
    title,
    snippet: textOf(o.snippet) ?? '',
    date: textOf(o.date),
    sitelinks: sitelinks.length > 0 ? sitelinks : undefined,
    image_url: textOf(o.imageUrl),
    attributes: textRecordOf(o.attributes),
  });
}

function image(i: Json): Omit<ItemOf<'images'>, 'position'> | undefined {
  const [link, title, imageUrl] = [textOf(i.link), textOf(i.title), textOf(i.imageUrl)];
  if (link === undefined || title === undefined || imageUrl === undefined) return undefined;
  return compact({ link, title, image_url: imageUrl, source: textOf(i.source) });
}

function news(n: Json): Omit<ItemOf<'news'>, 'position'> | undefined {
  const [link, title] = [textOf(n.link), textOf(n.title)];
  if (link === undefined || title === undefined) return undefined;
  return compact({
    title,
    link,
    snippet: textOf(n.snippet) ?? '',
    date: textOf(n.date),
    source: textOf(n.source),
    image_url: textOf(n.imageUrl),
  });
}

function video(v: Json): Omit<ItemOf<'videos'>, 'position'> | undefined {
  const [link, title] = [textOf(v.link), textOf(v.title)];
  if (link === undefined || title === undefined) return undefined;
  return compact({
    title,
    link,
    snippet: textOf(v.snippet),
    image_url: textOf(v.imageUrl),
    duration: textOf(v.duration),
    source: textOf(v.source) ?? textOf(v.channel),
    date: textOf(v.date),
  });
}

/** A place of `/places` (its kind in `category`) or of `/maps` (its kind in `type`). */
function place(p: Json): Omit<ItemOf<'places'>, 'position'> | undefined {
  const title = textOf(p.title);
  if (title === undefined) return undefined;
  return compact({
    title,
    address: textOf(p.address),
    latitude: numberOf(p.latitude),
    longitude: numberOf(p.longitude),
    rating: numberOf(p.rating),
    rating_count: integerOf(p.ratingCount),
    category: textOf(p.category) ?? textOf(p.type),
    phone_number: textOf(p.phoneNumber),
    website: textOf(p.website),
  });
}

function knowledgeGraph(value: unknown): SerpResult['knowledge_graph'] {
  const kg = objectOf(value);
  const title = textOf(kg?.title);
  if (kg === undefined || title === undefined) return undefined;
  return compact({
    type: textOf(kg.type) ?? 'entity',
    title,
    image_url: textOf(kg.imageUrl),
    attributes: textRecordOf(kg.attributes),
    description: textOf(kg.description),
    description_link: textOf(kg.descriptionLink),
    description_source: textOf(kg.descriptionSource),
  });
}

function peopleAlsoAsk(value: unknown): SerpResult['people_also_ask'] {
  const asked = listOf(value).flatMap((q) => {
    const [question, link] = [textOf(q.question), textOf(q.link)];
    if (question === undefined || link === undefined) return [];
    return [{ link, title: textOf(q.title) ?? '', snippet: textOf(q.snippet) ?? '', question }];
  });
  return asked.length > 0 ? asked : undefined;
}

function relatedSearches(value: unknown): SerpResult['related_searches'] {
  const related = listOf(value).flatMap((r) => {
    const query = textOf(r.query);
    return query === undefined ? [] : [{ query }];
  });
  return related.length > 0 ? related : undefined;
}

/** The contract's result array for `type`, from Serper's member for it (`/maps` answers in `places`). */
function resultsOf(type: SearchType, answer: Json, offset: number, count: number): SerpResult {
  const first = (member: string) => listOf(answer[member]).slice(0, count);
  switch (type) {
    case 'search':
      return { organic: numbered(first('organic').map(organic), offset) };
    case 'images':
      return { images: numbered(first('images').map(image), offset) };
    case 'news':
      return { news: numbered(first('news').map(news), offset) };
    case 'videos':
      return { videos: numbered(first('videos').map(video), offset) };
    case 'places':
      return { places: numbered(first('places').map(place), offset) };
    case 'maps':
      return { maps: numbered(first('places').map(place), offset) };
  }
}

export class Serper implements SerpBackend {
  private readonly base: string;

  constructor(private readonly channel: SerpChannel) {
    this.base = (channel.base_url ?? SERPER_URL).replace(/\/+$/, '');
  }

  async search(query: SerpQuery, signal: StopSignal): Promise<SerpResult> {
    const body = compact({
      q: query.query,
      gl: query.country.toLowerCase(),
      hl: query.language,
      num: query.number,
      page: query.page,
      tbs: tbsOf(parseRange(query.range)),
    });
    const response = await callUpstream(
      this.channel,
      `${this.base}/${query.type}`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.channel.api_key ? { 'x-api-key': this.channel.api_key } : {}),
        },
        body: JSON.stringify(body),
      },
      signal,
    );
    const answer = objectOf(await jsonOf(this.channel, response));
    if (answer === undefined)
      throw new UpstreamFailure(`${this.channel.name} sent an answer that is not an object`);
    return compact({
      ...resultsOf(query.type, answer, (query.page - 1) * query.number, query.number),
      knowledge_graph: knowledgeGraph(answer.knowledgeGraph),
      people_also_ask: peopleAlsoAsk(answer.peopleAlsoAsk),
      related_searches: relatedSearches(answer.relatedSearches),
    });
  }
}
