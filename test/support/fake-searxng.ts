/**
 * A SearXNG instance on loopback, for the tests of search channels. It answers the JSON search
 * API (`GET /search?q=…&format=json`) from a small set of canned documents, the way an instance
 * does: the query's words pick documents by title and content, `categories` by category,
 * `time_range` (day, week, month, year) by publishedDate, where undated documents pass as from
 * engines that cannot tell; `pageno` pages them `pageSize` at a time, and a page past the end is
 * empty. The infobox and suggestions come with page 1 only, like engines without paging. A format
 * other than json is refused with 403, as by an instance that has not enabled it; an unknown
 * time_range with 400. Tests script failures: statuses (their body echoes any bearer token, like a
 * careless proxy) or a raw body to answer next.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RANGES: Record<string, number> = { day: DAY, week: 7 * DAY, month: 31 * DAY, year: 365 * DAY };

interface Doc {
  category: 'general' | 'news' | 'images' | 'videos' | 'map';
  title: string;
  url: string;
  content: string;
  engine: string;
  /** ISO 8601 as SearXNG writes it (zoneless for naive dates), or a time before now. */
  date?: string | number;
  extra?: Record<string, unknown>;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '');

/** A date as SearXNG writes it; a zoneless one is UTC. */
const instant = (text: string) => Date.parse(/(Z|[+-]\d{2}:\d{2})$/.test(text) ? text : `${text}Z`);

/** The documents, in the order the instance ranks them. */
function documents(now: number): Doc[] {
  const general = (title: string, url: string, engine: string, date?: string | number, extra = {}): Doc => ({
    category: 'general',
    title,
    url,
    content: `${title}: all about the Rust programming language.`,
    engine,
    date,
    extra,
  });
  return [
    general('Rust Programming Language', 'https://www.rust-lang.org/', 'google', undefined, {
      img_src: 'https://www.rust-lang.org/logo.png',
    }),
    general(
      'Rust (programming language) - Wikipedia',
      'https://en.wikipedia.org/wiki/Rust',
      'wikipedia',
      now - HOUR / 2,
    ),
    general('Learn Rust', 'https://www.rust-lang.org/learn', 'duckduckgo', now - 3 * HOUR, {
      thumbnail: 'https://www.rust-lang.org/learn.png',
    }),
    general('Rust by Example', 'https://doc.rust-lang.org/rust-by-example/', 'bing', now - 3 * DAY),
    // The same page as the first, found again by another engine on a later page.
    general('Rust Programming Language (again)', 'https://www.rust-lang.org/', 'bing', undefined),
    general('The Rust Book', 'https://doc.rust-lang.org/book/', 'google', now - 20 * DAY),
    general('Rust Blog', 'https://blog.rust-lang.org/', 'brave', '2024-03-10T08:00:00'),
    general('Rust 1.77 released', 'https://blog.rust-lang.org/1.77', 'brave', '2024-03-31T23:59:00+00:00'),
    general('Rust 1.78 released', 'https://blog.rust-lang.org/1.78', 'brave', '2024-04-01T00:00:00'),
    general('Rust 2023 survey', 'https://blog.rust-lang.org/survey', 'qwant', '2023-12-31T23:30:00'),
    general('Rust Forum', 'https://users.rust-lang.org/', 'google', now - 400 * DAY),
    {
      category: 'news',
      title: 'Rust in the kernel',
      url: 'https://news.example/kernel',
      content: 'Rust code lands in the Linux kernel.',
      engine: 'bing news',
      date: now - 2 * HOUR,
      extra: { img_src: 'https://news.example/kernel.jpg' },
    },
    {
      category: 'news',
      title: 'Rust foundation news',
      url: 'https://news.example/foundation',
      content: 'The Rust foundation announces grants.',
      engine: 'yahoo news',
      date: now - 10 * DAY,
      extra: { thumbnail: 'https://news.example/foundation.jpg' },
    },
    {
      category: 'images',
      title: 'Rust logo',
      url: 'https://images.example/logo',
      content: '',
      engine: 'bing images',
      extra: {
        img_src: 'https://images.example/logo.png',
        thumbnail_src: 'https://images.example/logo-t.png',
      },
    },
    {
      category: 'images',
      title: 'Rust crab',
      url: 'https://images.example/ferris',
      content: '',
      engine: 'google images',
      extra: { thumbnail_src: 'https://images.example/ferris-t.png' },
    },
    {
      category: 'images',
      title: 'Rust diagram without an image',
      url: 'https://images.example/none',
      content: '',
      engine: 'flickr',
    },
    {
      category: 'videos',
      title: 'Rust in 100 seconds',
      url: 'https://videos.example/100s',
      content: 'Rust explained quickly.',
      engine: 'youtube',
      date: now - 5 * DAY,
      extra: {
        thumbnail: 'https://videos.example/100s.jpg',
        length: '4:32',
        iframe_src: 'https://v.example/e/1',
      },
    },
    {
      category: 'videos',
      title: 'Rust full course',
      url: 'https://videos.example/course',
      content: '',
      engine: 'peertube',
      extra: { img_src: 'https://videos.example/course.jpg', length: 3725 },
    },
    {
      category: 'map',
      title: 'Rust Cafe',
      url: 'https://openstreetmap.org/node/1',
      content: '',
      engine: 'openstreetmap',
      extra: {
        latitude: '52.5170365',
        longitude: '13.3888599',
        type: 'Cafe',
        address: {
          name: 'Rust Cafe',
          house_number: '1',
          road: 'Unter den Linden',
          locality: 'Berlin',
          postcode: '10117',
          country: 'Germany',
          country_code: 'de',
        },
        boundingbox: ['52.51', '52.52', '13.38', '13.39'],
      },
    },
    {
      category: 'map',
      title: 'Rust, Baden-Württemberg',
      url: 'https://openstreetmap.org/relation/2',
      content: '',
      engine: 'openstreetmap',
      extra: { latitude: '48.266', longitude: '7.722', address: {} },
    },
  ];
}

const INFOBOX = {
  infobox: 'Rust',
  id: 'https://en.wikipedia.org/wiki/Rust_(programming_language)',
  content: 'Rust is a general-purpose programming language.',
  img_src: 'https://upload.example/rust-logo.svg',
  urls: [
    { title: 'Wikipedia', url: 'https://en.wikipedia.org/wiki/Rust_(programming_language)' },
    { title: 'Official website', url: 'https://www.rust-lang.org/' },
  ],
  attributes: [
    { label: 'Designed by', value: 'Graydon Hoare' },
    { label: 'First appeared', value: 2015 },
  ],
  engine: 'wikidata',
  engines: ['wikidata'],
};

const SUGGESTIONS = ['rust tutorial', 'rust vs go'];

export interface SearxngRequest {
  path: string;
  params: Record<string, string>;
  authorization?: string;
}

export interface FakeSearxng {
  baseUrl: string;
  /** Requests received, in order. */
  received: SearxngRequest[];
  /** How many results a page holds (4 unless set). */
  pageSize(size: number): void;
  /** Statuses to answer, one per request, before answering normally. */
  failNext(...statuses: number[]): void;
  /** A body to answer the next request with, status 200. */
  answerNext(body: string): void;
  close(): Promise<void>;
}

function resultOf(doc: Doc, index: number): Record<string, unknown> {
  const templates = {
    general: 'default.html',
    news: 'default.html',
    images: 'images.html',
    videos: 'videos.html',
    map: 'map.html',
  };
  return {
    template: templates[doc.category],
    url: doc.url,
    title: doc.title,
    content: doc.content,
    engine: doc.engine,
    engines: [doc.engine],
    parsed_url: ['https', new URL(doc.url).host, new URL(doc.url).pathname, '', '', ''],
    positions: [index + 1],
    score: 1 / (index + 1),
    category: doc.category,
    publishedDate: doc.date === undefined ? null : typeof doc.date === 'number' ? iso(doc.date) : doc.date,
    ...doc.extra,
  };
}

export async function startFakeSearxng(): Promise<FakeSearxng> {
  const received: SearxngRequest[] = [];
  const failures: number[] = [];
  const bodies: string[] = [];
  let size = 4;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://searxng');
    const params = Object.fromEntries(url.searchParams);
    received.push({ path: url.pathname, params, authorization: req.headers.authorization });
    const failure = failures.shift();
    if (failure !== undefined) {
      res.writeHead(failure, { 'content-type': 'text/plain' });
      res.end(`searxng answers ${failure} to ${req.headers.authorization ?? 'anonymous'}`);
      return;
    }
    const body = bodies.shift();
    if (body !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
      return;
    }
    if (url.pathname !== '/search' && url.pathname !== '/') return void res.writeHead(404).end('Not Found');
    if (params.format !== 'json') return void res.writeHead(403).end('Forbidden');
    const span = params.time_range ? RANGES[params.time_range] : undefined;
    if (params.time_range && span === undefined) return void res.writeHead(400).end('Invalid time_range');
    const now = Date.now();
    const words = (params.q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const categories = (params.categories ?? 'general').split(',');
    const matching = documents(now).filter((doc) => {
      const text = `${doc.title} ${doc.content}`.toLowerCase();
      const at = typeof doc.date === 'string' ? instant(doc.date) : doc.date;
      return (
        categories.includes(doc.category) &&
        words.some((w) => text.includes(w)) &&
        (span === undefined || at === undefined || at >= now - span)
      );
    });
    const pageno = Math.max(1, Number(params.pageno ?? 1));
    const start = (pageno - 1) * size;
    const first = pageno === 1 && categories.includes('general') && words.includes('rust');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        query: params.q,
        number_of_results: 0,
        results: matching.slice(start, start + size).map((doc, i) => resultOf(doc, start + i)),
        answers: [],
        corrections: [],
        infoboxes: first ? [INFOBOX] : [],
        suggestions: first ? SUGGESTIONS : [],
        unresponsive_engines: [],
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    pageSize: (n) => (size = n),
    failNext: (...statuses) => failures.push(...statuses),
    answerNext: (body) => bodies.push(body),
    close: () => new Promise((r) => server.close(() => r())),
  };
}
