/** `/serp/web`: web search; `type` selects which result array is filled. */
import { Type, Closed, StringEnum, PatternString } from './schema.js';
import type { Operation, Rule } from './types.js';

export const SEARCH_TYPES = ['search', 'images', 'news', 'maps', 'places', 'videos'] as const;

const DATE_RANGE = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/;

export const SerpRequest = Closed({
  query: Type.String({ minLength: 1, maxLength: 2048, description: 'The search query' }),
  type: Type.Optional(StringEnum(SEARCH_TYPES, { default: 'search', description: 'Resource type' })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 1, description: 'Page of results' })),
  number: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: 10, description: 'Count of results' }),
  ),
  range: Type.Optional(
    PatternString(
      '^((qdr:)?[hdwmy]|\\d{4}-\\d{2}-\\d{2}\\.\\.\\d{4}-\\d{2}-\\d{2})$',
      'must be h, d, w, m or y (optionally as qdr:h …) or YYYY-MM-DD..YYYY-MM-DD',
      { description: 'Date range; unlimited when absent' },
    ),
  ),
  country: Type.Optional(
    PatternString('^[A-Za-z]{2}$', 'must be a two-letter country code', { default: 'US' }),
  ),
  language: Type.Optional(
    PatternString('^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})?$', 'must be a language code such as en or zh-CN', {
      default: 'en',
    }),
  ),
});

function isRealDate(text: string): boolean {
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

const rangeIsReal: Rule = (body) => {
  const match = typeof body.range === 'string' ? DATE_RANGE.exec(body.range) : null;
  if (!match) return [];
  const [, from = '', to = ''] = match;
  if (!isRealDate(from) || !isRealDate(to))
    return [{ field: 'range', rule: 'must hold real calendar dates' }];
  return from > to ? [{ field: 'range', rule: 'must start on or before its end date' }] : [];
};

const Link = Type.String();
const Position = Type.Integer({ minimum: 1 });

const Place = Type.Object({
  title: Type.String(),
  address: Type.Optional(Type.String()),
  latitude: Type.Optional(Type.Number()),
  longitude: Type.Optional(Type.Number()),
  rating: Type.Optional(Type.Number()),
  rating_count: Type.Optional(Type.Integer()),
  category: Type.Optional(Type.String()),
  phone_number: Type.Optional(Type.String()),
  website: Type.Optional(Type.String()),
  position: Position,
});

export const SerpResponse = Type.Object({
  organic: Type.Optional(
    Type.Array(
      Type.Object({
        link: Link,
        title: Type.String(),
        snippet: Type.String(),
        position: Position,
        date: Type.Optional(Type.String()),
        sitelinks: Type.Optional(Type.Array(Type.Object({ link: Link, title: Type.String() }))),
        image_url: Type.Optional(Type.String()),
        attributes: Type.Optional(Type.Record(Type.String(), Type.String())),
      }),
    ),
  ),
  images: Type.Optional(
    Type.Array(
      Type.Object({
        link: Link,
        title: Type.String(),
        image_url: Type.String(),
        source: Type.Optional(Type.String()),
        position: Type.Optional(Position),
      }),
    ),
  ),
  news: Type.Optional(
    Type.Array(
      Type.Object({
        title: Type.String(),
        link: Link,
        snippet: Type.String(),
        date: Type.Optional(Type.String()),
        source: Type.Optional(Type.String()),
        image_url: Type.Optional(Type.String()),
        position: Position,
      }),
    ),
  ),
  videos: Type.Optional(
    Type.Array(
      Type.Object({
        title: Type.String(),
        link: Link,
        snippet: Type.Optional(Type.String()),
        image_url: Type.Optional(Type.String()),
        duration: Type.Optional(Type.String()),
        source: Type.Optional(Type.String()),
        date: Type.Optional(Type.String()),
        position: Position,
      }),
    ),
  ),
  places: Type.Optional(Type.Array(Place)),
  maps: Type.Optional(Type.Array(Place)),
  knowledge_graph: Type.Optional(
    Type.Object({
      type: Type.String(),
      title: Type.String(),
      image_url: Type.Optional(Type.String()),
      attributes: Type.Optional(Type.Record(Type.String(), Type.String())),
      description: Type.Optional(Type.String()),
      description_link: Type.Optional(Type.String()),
      description_source: Type.Optional(Type.String()),
    }),
  ),
  people_also_ask: Type.Optional(
    Type.Array(
      Type.Object({ link: Link, title: Type.String(), snippet: Type.String(), question: Type.String() }),
    ),
  ),
  related_searches: Type.Optional(Type.Array(Type.Object({ query: Type.String() }))),
});

export const serp: Operation = {
  path: '/serp/web',
  family: 'serp',
  kind: 'sync',
  summary: 'Web search',
  accept: ['application/json'],
  priceKey: 'serp.web',
  request: SerpRequest,
  rules: [rangeIsReal],
  response: SerpResponse,
};
