/**
 * The search channels against fake upstreams on loopback: every type's answer in the contract's
 * shape and nothing more, paging, ranges, what goes up (country, language, the key), and failures
 * classified for the router, with the key in no message even when an upstream echoes it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TSchema } from '@sinclair/typebox';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_TYPES, SerpResponse } from '../../src/contract/serp.js';
import { UpstreamFailure } from '../../src/providers/router.js';
import { Passthrough } from '../../src/providers/serp/channels/passthrough.js';
import { MAX_UPSTREAM_PAGES, Searxng } from '../../src/providers/serp/channels/searxng.js';
import { Serper } from '../../src/providers/serp/channels/serper.js';
import type {
  SearchType,
  SerpBackend,
  SerpChannel,
  SerpQuery,
  SerpResult,
} from '../../src/providers/serp/types.js';
import { expectShape } from '../support/expect.js';
import { startFakeSearxng, type FakeSearxng } from '../support/fake-searxng.js';
import { startFakeSerper, type FakeSerper } from '../support/fake-serper.js';
import { startFakeSerpWeb, type FakeSerpWeb } from '../support/fake-serp-web.js';

const KEY = 'sk-live-0123456789abcdef';
const never = new AbortController().signal;

const MEMBERS: Record<SearchType, keyof SerpResult> = {
  search: 'organic',
  images: 'images',
  news: 'news',
  videos: 'videos',
  places: 'places',
  maps: 'maps',
};

function ask(query: Partial<SerpQuery> = {}): SerpQuery {
  return { query: 'rust', type: 'search', page: 1, number: 10, country: 'US', language: 'en', ...query };
}

function itemsOf(result: SerpResult, type: SearchType): Record<string, unknown>[] {
  return (result[MEMBERS[type]] ?? []) as Record<string, unknown>[];
}

const positions = (items: Record<string, unknown>[]) => items.map((i) => i.position);
const links = (items: Record<string, unknown>[]) => items.map((i) => i.link);

/** The paths of members the contract does not have, e.g. `.maps[0].cid`. */
function unknownMembers(schema: TSchema, value: unknown, path = ''): string[] {
  const { properties, items } = schema as { properties?: Record<string, TSchema>; items?: TSchema };
  if (Array.isArray(value) && items)
    return value.flatMap((v, i) => unknownMembers(items, v, `${path}[${i}]`));
  if (typeof value !== 'object' || value === null || !properties) return [];
  return Object.entries(value).flatMap(([key, v]) => {
    const member = properties[key];
    return member ? unknownMembers(member, v, `${path}.${key}`) : [`${path}.${key}`];
  });
}

/** The answer is in the contract's shape and has nothing the contract lacks. */
function expectContract(result: SerpResult): void {
  expectShape(result, SerpResponse);
  expect(unknownMembers(SerpResponse, result)).toEqual([]);
}

async function failureOf(search: Promise<unknown>): Promise<UpstreamFailure> {
  const error = await search.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UpstreamFailure);
  expect((error as Error).message).not.toContain(KEY);
  return error as UpstreamFailure;
}

async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return `http://127.0.0.1:${port}`;
}

let searxng: FakeSearxng;
let serper: FakeSerper;
let serpWeb: FakeSerpWeb;

beforeAll(async () => {
  [searxng, serper, serpWeb] = await Promise.all([
    startFakeSearxng(),
    startFakeSerper(KEY),
    startFakeSerpWeb(),
  ]);
});
afterAll(async () => {
  await Promise.all([searxng.close(), serper.close(), serpWeb.close()]);
});
afterEach(() => {
  searxng.received.length = 0;
  searxng.pageSize(4);
  serper.received.length = 0;
  serpWeb.received.length = 0;
  serpWeb.delay(0);
});

const channel = (name: string, baseUrl: string, extra: Partial<SerpChannel> = {}): SerpChannel => ({
  name,
  base_url: baseUrl,
  timeout_seconds: 5,
  ...extra,
});

describe('Searxng', () => {
  const backend = () => new Searxng(channel('searx', searxng.baseUrl));
  const CATEGORIES: Record<SearchType, string> = {
    search: 'general',
    news: 'news',
    images: 'images',
    videos: 'videos',
    places: 'map',
    maps: 'map',
  };

  it.each(SEARCH_TYPES)('answers type %s in the contract shape', async (type) => {
    const result = await backend().search(ask({ type }), never);
    expectContract(result);
    expect(itemsOf(result, type).length).toBeGreaterThan(0);
    const filled = Object.keys(result).filter((k) => Object.values(MEMBERS).includes(k as keyof SerpResult));
    expect(filled).toEqual([MEMBERS[type]]);
    expect(searxng.received[0]).toMatchObject({
      path: '/search',
      params: { q: 'rust', format: 'json', pageno: '1', categories: CATEGORIES[type] },
    });
  });

  it('maps web results, the first infobox and the suggestions', async () => {
    const result = await backend().search(ask({ number: 3 }), never);
    expect(result.organic).toEqual([
      {
        link: 'https://www.rust-lang.org/',
        title: 'Rust Programming Language',
        snippet: 'Rust Programming Language: all about the Rust programming language.',
        image_url: 'https://www.rust-lang.org/logo.png',
        position: 1,
      },
      {
        link: 'https://en.wikipedia.org/wiki/Rust',
        title: 'Rust (programming language) - Wikipedia',
        snippet: 'Rust (programming language) - Wikipedia: all about the Rust programming language.',
        date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        position: 2,
      },
      {
        link: 'https://www.rust-lang.org/learn',
        title: 'Learn Rust',
        snippet: 'Learn Rust: all about the Rust programming language.',
        date: expect.any(String),
        image_url: 'https://www.rust-lang.org/learn.png',
        position: 3,
      },
    ]);
    expect(Object.keys(result.organic?.[0] ?? {})).not.toContain('date');
    expect(result.knowledge_graph).toEqual({
      type: 'entity',
      title: 'Rust',
      image_url: 'https://upload.example/rust-logo.svg',
      attributes: { 'Designed by': 'Graydon Hoare', 'First appeared': '2015' },
      description: 'Rust is a general-purpose programming language.',
      description_link: 'https://en.wikipedia.org/wiki/Rust_(programming_language)',
      description_source: 'wikidata',
    });
    expect(result.related_searches).toEqual([{ query: 'rust tutorial' }, { query: 'rust vs go' }]);
  });

  it('maps news, images, videos and map results', async () => {
    const search = (type: SearchType) => backend().search(ask({ type }), never);
    expect((await search('news')).news).toEqual([
      {
        title: 'Rust in the kernel',
        link: 'https://news.example/kernel',
        snippet: 'Rust code lands in the Linux kernel.',
        date: expect.any(String),
        source: 'bing news',
        image_url: 'https://news.example/kernel.jpg',
        position: 1,
      },
      {
        title: 'Rust foundation news',
        link: 'https://news.example/foundation',
        snippet: 'The Rust foundation announces grants.',
        date: expect.any(String),
        source: 'yahoo news',
        image_url: 'https://news.example/foundation.jpg',
        position: 2,
      },
    ]);
    // The result without any image is left out.
    expect((await search('images')).images).toEqual([
      {
        link: 'https://images.example/logo',
        title: 'Rust logo',
        image_url: 'https://images.example/logo.png',
        source: 'bing images',
        position: 1,
      },
      {
        link: 'https://images.example/ferris',
        title: 'Rust crab',
        image_url: 'https://images.example/ferris-t.png',
        source: 'google images',
        position: 2,
      },
    ]);
    expect((await search('videos')).videos).toEqual([
      {
        title: 'Rust in 100 seconds',
        link: 'https://videos.example/100s',
        snippet: 'Rust explained quickly.',
        image_url: 'https://videos.example/100s.jpg',
        duration: '4:32',
        source: 'youtube',
        date: expect.any(String),
        position: 1,
      },
      {
        title: 'Rust full course',
        link: 'https://videos.example/course',
        image_url: 'https://videos.example/course.jpg',
        duration: '1:02:05',
        source: 'peertube',
        position: 2,
      },
    ]);
    const places = [
      {
        title: 'Rust Cafe',
        address: '1 Unter den Linden, Berlin, 10117, Germany',
        latitude: 52.5170365,
        longitude: 13.3888599,
        category: 'Cafe',
        position: 1,
      },
      { title: 'Rust, Baden-Württemberg', latitude: 48.266, longitude: 7.722, position: 2 },
    ];
    expect((await search('maps')).maps).toEqual(places);
    expect((await search('places')).places).toEqual(places);
  });

  it('fills a page from as many upstream pages as it takes, without duplicates, ranks continuing', async () => {
    const all = itemsOf(await backend().search(ask({ number: 10 }), never), 'search');
    // Four a page, and page 2 repeats a link of page 1: three pages make ten.
    expect(searxng.received.map((r) => r.params.pageno)).toEqual(['1', '2', '3']);
    expect(positions(all)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(new Set(links(all)).size).toBe(10);
    searxng.received.length = 0;
    const second = itemsOf(await backend().search(ask({ page: 2, number: 3 }), never), 'search');
    expect(positions(second)).toEqual([4, 5, 6]);
    expect(links(second)).toEqual(links(all.slice(3, 6)));
    expect(searxng.received.map((r) => r.params.pageno)).toEqual(['1', '2']);
  });

  it('stops at the first empty page', async () => {
    const result = await backend().search(ask({ number: 50 }), never);
    expect(searxng.received.map((r) => r.params.pageno)).toEqual(['1', '2', '3', '4']);
    expect(positions(itemsOf(result, 'search'))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const beyond = await backend().search(ask({ page: 2, number: 10 }), never);
    expect(beyond.organic).toEqual([]);
  });

  it(`fetches at most ${MAX_UPSTREAM_PAGES} upstream pages for one search`, async () => {
    searxng.pageSize(1);
    const result = await backend().search(ask({ number: 20 }), never);
    expect(searxng.received).toHaveLength(MAX_UPSTREAM_PAGES);
    // The fifth page repeats the first link.
    expect(positions(itemsOf(result, 'search'))).toEqual([1, 2, 3, 4]);
  });

  it.each([
    ['d', 'day'],
    ['w', 'week'],
    ['m', 'month'],
    ['y', 'year'],
    ['qdr:w', 'week'],
  ])('asks range %s as time_range %s', async (range, timeRange) => {
    await backend().search(ask({ range }), never);
    expect(searxng.received[0]?.params.time_range).toBe(timeRange);
  });

  it('asks the last hour as the last day, then drops dated results older than an hour', async () => {
    const result = await backend().search(ask({ range: 'h' }), never);
    expect(searxng.received[0]?.params.time_range).toBe('day');
    // The first is undated (it stays), the second half an hour old; the third, 3 hours old, goes.
    expect(links(itemsOf(result, 'search'))).toEqual([
      'https://www.rust-lang.org/',
      'https://en.wikipedia.org/wiki/Rust',
    ]);
  });

  it('asks a span of days as no time_range, keeping only results dated inside it', async () => {
    const result = await backend().search(ask({ range: '2024-01-01..2024-03-31', number: 20 }), never);
    expect(searxng.received.every((r) => !('time_range' in r.params))).toBe(true);
    expect(links(itemsOf(result, 'search'))).toEqual([
      'https://blog.rust-lang.org/',
      'https://blog.rust-lang.org/1.77',
    ]);
  });

  it('forwards the language as given, and a key as a bearer token', async () => {
    await new Searxng(channel('searx', searxng.baseUrl, { api_key: KEY })).search(
      ask({ language: 'zh-CN', country: 'CN' }),
      never,
    );
    expect(searxng.received[0]?.params.language).toBe('zh-CN');
    expect(searxng.received[0]?.authorization).toBe(`Bearer ${KEY}`);
    searxng.received.length = 0;
    await backend().search(ask(), never);
    expect(searxng.received[0]?.authorization).toBeUndefined();
  });
});

describe('Serper', () => {
  const backend = () => new Serper(channel('serper', serper.baseUrl, { api_key: KEY }));

  it.each(SEARCH_TYPES)('answers type %s in the contract shape, from its own endpoint', async (type) => {
    const result = await backend().search(ask({ type }), never);
    expectContract(result);
    expect(itemsOf(result, type).length).toBeGreaterThan(0);
    expect(serper.received[0]).toMatchObject({ path: `/${type}`, apiKey: KEY });
  });

  it('maps web results, the knowledge graph, people also ask and related searches', async () => {
    const result = await backend().search(ask({ number: 2 }), never);
    expect(result.organic).toEqual([
      {
        link: 'https://web.example/rust',
        title: 'Rust Programming Language',
        snippet: 'Rust Programming Language, a page about Rust.',
        sitelinks: [
          { title: 'Install', link: 'https://web.example/rust/install' },
          { title: 'Learn', link: 'https://web.example/rust/learn' },
        ],
        attributes: { 'Latest release': '1.78', Stars: '4.5' },
        position: 1,
      },
      {
        link: 'https://web.example/today',
        title: 'Rust news today',
        snippet: 'Rust news today, a page about Rust.',
        date: expect.stringMatching(/ago$/),
        image_url: 'https://img.example/today.png',
        position: 2,
      },
    ]);
    expect(result.knowledge_graph).toEqual({
      type: 'Programming language',
      title: 'Rust',
      image_url: 'https://img.example/rust-kg.png',
      attributes: { 'Designed by': 'Graydon Hoare', 'First appeared': 'July 7, 2010' },
      description: 'Rust is a general-purpose programming language.',
      description_link: 'https://en.wikipedia.org/wiki/Rust_(programming_language)',
      description_source: 'Wikipedia',
    });
    expect(result.people_also_ask).toEqual([
      {
        link: 'https://web.example/learning',
        title: 'Learning Rust',
        snippet: 'It takes a while.',
        question: 'Is Rust hard to learn?',
      },
    ]);
    expect(result.related_searches).toEqual([{ query: 'rust tutorial' }, { query: 'rust vs go' }]);
  });

  it('maps images, news, videos, places and maps, dropping what the contract lacks', async () => {
    const search = (type: SearchType) => backend().search(ask({ type }), never);
    expect((await search('images')).images).toEqual([
      {
        link: 'https://en.wikipedia.org/wiki/File:Rust_logo.png',
        title: 'Rust logo',
        image_url: 'https://img.example/rust.png',
        source: 'Wikipedia',
        position: 1,
      },
      {
        link: 'https://rustacean.net/',
        title: 'Rust crab Ferris',
        image_url: 'https://img.example/ferris.png',
        source: 'rustacean.net',
        position: 2,
      },
    ]);
    expect((await search('news')).news).toEqual([
      {
        title: 'Rust in the kernel',
        link: 'https://news.example/kernel',
        snippet: 'Rust code lands in Linux.',
        date: '2 hours ago',
        source: 'The Register',
        image_url: 'https://news.example/kernel.jpg',
        position: 1,
      },
      {
        title: 'Rust foundation grants',
        link: 'https://news.example/grants',
        snippet: 'Grants for Rust maintainers.',
        date: '10 days ago',
        source: 'InfoQ',
        position: 2,
      },
    ]);
    expect((await search('videos')).videos).toEqual([
      {
        title: 'Rust in 100 Seconds',
        link: 'https://www.youtube.com/watch?v=5C_HPTJg5ek',
        snippet: 'Rust explained quickly.',
        image_url: 'https://i.ytimg.com/vi/5C_HPTJg5ek/default.jpg',
        duration: '2:29',
        source: 'YouTube',
        date: '5 days ago',
        position: 1,
      },
    ]);
    const cafe = {
      title: 'Rust Cafe',
      latitude: 52.5170365,
      longitude: 13.3888599,
      rating: 4.6,
      rating_count: 1751,
      category: 'Cafe',
      phone_number: '+49 30 1234567',
      website: 'https://rust.cafe/',
      position: 1,
    };
    expect((await search('places')).places).toEqual([
      { ...cafe, address: 'Unter den Linden 1, Berlin' },
      {
        title: 'Rust Bar',
        address: 'Friedrichstraße 2, Berlin',
        latitude: 52.52,
        longitude: 13.39,
        category: 'Bar',
        position: 2,
      },
    ]);
    const maps = await search('maps');
    expect(maps).toEqual({ maps: [{ ...cafe, address: 'Unter den Linden 1, 10117 Berlin' }] });
  });

  it('sends the query, the country in lower case, the language, the page and its size', async () => {
    await backend().search(ask({ country: 'DE', language: 'zh-CN', page: 2, number: 3 }), never);
    expect(serper.received[0]?.body).toEqual({ q: 'rust', gl: 'de', hl: 'zh-CN', num: 3, page: 2 });
  });

  it('ranks a later page on from its offset', async () => {
    const all = itemsOf(await backend().search(ask({ number: 6 }), never), 'search');
    const second = itemsOf(await backend().search(ask({ page: 2, number: 3 }), never), 'search');
    expect(positions(second)).toEqual([4, 5, 6]);
    expect(links(second)).toEqual(links(all.slice(3, 6)));
  });

  it.each([
    ['h', 'qdr:h'],
    ['d', 'qdr:d'],
    ['w', 'qdr:w'],
    ['m', 'qdr:m'],
    ['y', 'qdr:y'],
    ['qdr:m', 'qdr:m'],
    ['2024-01-15..2024-03-31', 'cdr:1,cd_min:01/15/2024,cd_max:03/31/2024'],
  ])('sends range %s as tbs %s', async (range, tbs) => {
    await backend().search(ask({ range }), never);
    expect(serper.received[0]?.body.tbs).toBe(tbs);
  });

  it('sends no tbs without a range, and a span of days gets the results dated inside it', async () => {
    await backend().search(ask(), never);
    expect(serper.received[0]?.body).not.toHaveProperty('tbs');
    const result = await backend().search(ask({ range: '2024-02-01..2024-03-31' }), never);
    expect(links(itemsOf(result, 'search'))).toEqual([
      'https://web.example/february',
      'https://web.example/march',
    ]);
  });

  it('reads loosely typed answers: numbers as text, required members missing, extras', async () => {
    serper.answerNext(
      JSON.stringify({
        organic: [
          { title: 'A', link: 'https://a.example', position: '7' },
          { title: 'No link' },
          {
            title: 'B',
            link: 'https://b.example',
            snippet: 'b',
            attributes: { Rank: 1, Good: true, Deep: { x: 1 } },
          },
        ],
        knowledgeGraph: { title: 'Thing', rating: 5 },
        peopleAlsoAsk: [{ question: 'Without a link?' }],
      }),
    );
    const result = await backend().search(ask(), never);
    expectContract(result);
    expect(result).toEqual({
      organic: [
        { link: 'https://a.example', title: 'A', snippet: '', position: 1 },
        {
          link: 'https://b.example',
          title: 'B',
          snippet: 'b',
          attributes: { Rank: '1', Good: 'true' },
          position: 2,
        },
      ],
      knowledge_graph: { type: 'entity', title: 'Thing' },
    });
    serper.answerNext(
      JSON.stringify({
        places: [
          {
            title: 'P',
            latitude: '40.7',
            longitude: -74,
            rating: '4.5',
            ratingCount: '1,234',
            position: '3',
          },
        ],
      }),
    );
    const maps = await backend().search(ask({ type: 'maps' }), never);
    expect(maps).toEqual({
      maps: [{ title: 'P', latitude: 40.7, longitude: -74, rating: 4.5, rating_count: 1234, position: 1 }],
    });
  });
});

describe('Passthrough', () => {
  it('sends the query as it is, with the key as a bearer token, and returns a valid answer', async () => {
    const backend = new Passthrough(channel('peer', serpWeb.baseUrl, { api_key: KEY }));
    const query = ask({ page: 3, number: 5, range: 'w', country: 'GB', language: 'en-GB' });
    const result = await backend.search(query, never);
    expect(result).toEqual({
      organic: [
        { link: 'https://web.example/echo', title: 'rust', snippet: 'You asked for rust.', position: 11 },
      ],
    });
    expect(serpWeb.received).toEqual([{ path: '/serp/web', body: query, authorization: `Bearer ${KEY}` }]);
  });

  it('sends no authorization without a key', async () => {
    await new Passthrough(channel('peer', serpWeb.baseUrl)).search(ask(), never);
    expect(serpWeb.received[0]?.authorization).toBeUndefined();
  });

  it('refuses an answer outside the contract, naming the first violation', async () => {
    const backend = new Passthrough(channel('peer', serpWeb.baseUrl, { api_key: KEY }));
    serpWeb.answerNext(JSON.stringify({ organic: [{ link: 'x', title: 't', snippet: 's', position: 0 }] }));
    const failure = await failureOf(backend.search(ask(), never));
    expect(failure.message).toBe(
      'peer answered outside the contract: organic[0].position must be at least 1',
    );
    expect(failure.status).toBeUndefined();
    serpWeb.answerNext('[]');
    expect((await failureOf(backend.search(ask(), never))).message).toMatch(
      /outside the contract: body must be object/,
    );
  });

  it('gives up on an upstream slower than the channel allows', async () => {
    serpWeb.delay(500);
    const backend = new Passthrough(channel('peer', serpWeb.baseUrl, { timeout_seconds: 0.1 }));
    const failure = await failureOf(backend.search(ask(), never));
    expect(failure.message).toBe('peer unreachable (no answer within 0.1 s)');
    expect(failure.status).toBeUndefined();
    expect(failure.retryable).toBe(true);
  });
});

describe('failures', () => {
  interface Case {
    make(baseUrl?: string): SerpBackend;
    fail(status: number): void;
    answer(body: string): void;
    /** A JSON answer of the wrong shape, and what the failure says about it. */
    misshapen: [string, RegExp];
  }
  const cases: Record<string, Case> = {
    searx: {
      make: (url) => new Searxng(channel('searx', url ?? searxng.baseUrl, { api_key: KEY })),
      fail: (s) => searxng.failNext(s),
      answer: (b) => searxng.answerNext(b),
      misshapen: ['{"results": "none"}', /^searx sent an answer without results$/],
    },
    serper: {
      make: (url) => new Serper(channel('serper', url ?? serper.baseUrl, { api_key: KEY })),
      fail: (s) => serper.failNext(s),
      answer: (b) => serper.answerNext(b),
      misshapen: ['[1, 2]', /^serper sent an answer that is not an object$/],
    },
    peer: {
      make: (url) => new Passthrough(channel('peer', url ?? serpWeb.baseUrl, { api_key: KEY })),
      fail: (s) => serpWeb.failNext(s),
      answer: (b) => serpWeb.answerNext(b),
      misshapen: ['{"organic": "none"}', /^peer answered outside the contract: organic must be array$/],
    },
  };
  const names = Object.keys(cases);
  const get = (name: string) => cases[name] as Case;

  it.each(names)(
    '%s: a 500 is worth retrying and keeps its status (the key echoed back blanked)',
    async (name) => {
      get(name).fail(500);
      const failure = await failureOf(get(name).make().search(ask(), never));
      expect(failure).toMatchObject({ status: 500, retryable: true, channelFault: false });
      expect(failure.message).toMatch(/^500 /);
      expect(failure.message).toContain('***');
    },
  );

  it.each(names)('%s: a 401 is the channel’s fault', async (name) => {
    get(name).fail(401);
    const failure = await failureOf(get(name).make().search(ask(), never));
    expect(failure).toMatchObject({ status: 401, retryable: false, channelFault: true });
  });

  it.each(names)('%s: a refused connection has no status', async (name) => {
    const failure = await failureOf(
      get(name)
        .make(await closedPort())
        .search(ask(), never),
    );
    expect(failure.message).toBe(`${name} unreachable (ECONNREFUSED)`);
    expect(failure).toMatchObject({ status: undefined, retryable: true, channelFault: false });
  });

  it.each(names)('%s: a body that is not JSON has no status', async (name) => {
    get(name).answer(`<html>${KEY} is not JSON</html>`);
    const failure = await failureOf(get(name).make().search(ask(), never));
    expect(failure.message).toMatch(new RegExp(`^${name} sent a broken answer`));
    expect(failure.status).toBeUndefined();
  });

  it.each(names)('%s: JSON of the wrong shape has no status', async (name) => {
    const [body, message] = get(name).misshapen;
    get(name).answer(body);
    const failure = await failureOf(get(name).make().search(ask(), never));
    expect(failure.message).toMatch(message);
    expect(failure.status).toBeUndefined();
  });

  it('serper: a key the upstream refuses is the channel’s fault', async () => {
    const backend = new Serper(channel('serper', serper.baseUrl, { api_key: 'not-the-key' }));
    const failure = await failureOf(backend.search(ask(), never));
    expect(failure).toMatchObject({ status: 403, channelFault: true });
    expect(failure.message).not.toContain('not-the-key');
  });
});
