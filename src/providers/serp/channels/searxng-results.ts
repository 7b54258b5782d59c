/**
 * SearXNG's JSON results in the contract's shape. SearXNG merges many engines, so one result
 * template serves several types: `url` is the link, `content` the snippet, `engine` the source,
 * `img_src` or a thumbnail the image; map results carry coordinates (as text, from Nominatim) and
 * an address object. The first infobox becomes the knowledge graph, suggestions related searches.
 */
import { compact, listOf, numberOf, objectOf, textOf, textRecordOf, type Json } from '../../json-readers.js';
import { numbered, type ItemOf } from '../shape.js';
import type { SearchType, SerpResult } from '../types.js';

type Mapped<K extends keyof SerpResult> = Omit<ItemOf<K>, 'position'> | undefined;

const imageOf = (r: Json) => textOf(r.img_src) ?? textOf(r.thumbnail_src) ?? textOf(r.thumbnail);

/** A video's `length`: text as sent, seconds (a serialized timedelta) as h:mm:ss or m:ss. */
function durationOf(length: unknown): string | undefined {
  if (typeof length !== 'number') return textOf(length);
  const seconds = Math.round(length);
  const [h, m, s] = [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60, seconds % 60];
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** An address as SearXNG's map engines send it (an object of parts) or as plain text. */
function addressOf(address: unknown): string | undefined {
  const parts = objectOf(address);
  if (parts === undefined) return textOf(address);
  const street = [textOf(parts.house_number), textOf(parts.road)].filter(Boolean).join(' ');
  const line = [street, parts.locality, parts.postcode, parts.country].map(textOf).filter(Boolean);
  return line.length > 0 ? line.join(', ') : undefined;
}

function organic(r: Json, link: string): Mapped<'organic'> {
  return compact({
    link,
    title: textOf(r.title) ?? link,
    snippet: textOf(r.content) ?? '',
    date: textOf(r.publishedDate),
    image_url: imageOf(r),
  });
}

function news(r: Json, link: string): Mapped<'news'> {
  return compact({
    title: textOf(r.title) ?? link,
    link,
    snippet: textOf(r.content) ?? '',
    date: textOf(r.publishedDate),
    source: textOf(r.engine),
    image_url: imageOf(r),
  });
}

function image(r: Json, link: string): Mapped<'images'> {
  const imageUrl = imageOf(r);
  if (imageUrl === undefined) return undefined;
  return compact({ link, title: textOf(r.title) ?? link, image_url: imageUrl, source: textOf(r.engine) });
}

function video(r: Json, link: string): Mapped<'videos'> {
  return compact({
    title: textOf(r.title) ?? link,
    link,
    snippet: textOf(r.content),
    image_url: textOf(r.thumbnail) ?? textOf(r.img_src),
    duration: durationOf(r.length),
    source: textOf(r.engine),
    date: textOf(r.publishedDate),
  });
}

function place(r: Json): Mapped<'places'> {
  const title = textOf(r.title);
  if (title === undefined) return undefined;
  return compact({
    title,
    address: addressOf(r.address),
    latitude: numberOf(r.latitude),
    longitude: numberOf(r.longitude),
    category: textOf(r.type),
  });
}

/** The results of one type gathered over SearXNG's pages, then cut to the page asked for. */
export interface Collector {
  /** Adds `result`, found at `link`, when it can be read as an item of the type. */
  add(result: Json, link: string): void;
  readonly size: number;
  /** The items `[offset, offset + count)`, ranked. */
  page(offset: number, count: number): SerpResult;
}

function collector<K extends keyof SerpResult>(
  member: K,
  read: (r: Json, link: string) => Mapped<K>,
): Collector {
  const items: Omit<ItemOf<K>, 'position'>[] = [];
  return {
    add(result, link) {
      const item = read(result, link);
      if (item !== undefined) items.push(item);
    },
    get size() {
      return items.length;
    },
    page: (offset, count) =>
      ({ [member]: numbered<ItemOf<K>>(items.slice(offset, offset + count), offset) }) as SerpResult,
  };
}

export function collectorFor(type: SearchType): Collector {
  switch (type) {
    case 'search':
      return collector('organic', organic);
    case 'news':
      return collector('news', news);
    case 'images':
      return collector('images', image);
    case 'videos':
      return collector('videos', video);
    case 'places':
      return collector('places', place);
    case 'maps':
      return collector('maps', place);
  }
}

/** SearXNG's first infobox as the knowledge graph; its kind is unknown to SearXNG. */
export function knowledgeGraphOf(infoboxes: unknown): SerpResult['knowledge_graph'] {
  const [box] = listOf(infoboxes);
  const title = textOf(box?.infobox);
  if (box === undefined || title === undefined) return undefined;
  const attributes = listOf(box.attributes).map((a) => [textOf(a.label), textOf(a.value)]);
  return compact({
    type: 'entity',
    title,
    image_url: textOf(box.img_src),
    attributes: textRecordOf(Object.fromEntries(attributes.filter(([label]) => label !== undefined))),
    description: textOf(box.content),
    description_link: textOf(listOf(box.urls)[0]?.url) ?? textOf(box.id),
    description_source: textOf(box.engine),
  });
}

export function relatedSearchesOf(suggestions: unknown): SerpResult['related_searches'] {
  const related = (Array.isArray(suggestions) ? suggestions : []).flatMap((s) => {
    const query = textOf(s);
    return query === undefined ? [] : [{ query }];
  });
  return related.length > 0 ? related : undefined;
}
