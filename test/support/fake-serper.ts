/**
 * A Serper.dev-style Google search API on loopback, for the tests of search channels. It takes
 * `POST /search|news|images|videos|places|maps` with a JSON body `{q, gl, hl, num, page, tbs}` and
 * the key in `X-API-KEY` (anything but its own key gets 403), and answers from a small set of
 * canned documents: the query's words pick documents by title, `tbs` filters by date (`qdr:h` …
 * `qdr:y`, or `cdr:1,cd_min:MM/DD/YYYY,cd_max:MM/DD/YYYY`, undated documents left out as Google
 * does), `num` and `page` cut the page. Answers carry Serper's camelCase members and its extras
 * (searchParameters, credits, cid, image sizes); each page is numbered from 1, so that tests see
 * the ranks are the backend's own. Tests script failures: statuses (their body echoes the key, as
 * a careless upstream might) or a raw body to answer next.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RECENT: Record<string, number> = { h: HOUR, d: DAY, w: 7 * DAY, m: 31 * DAY, y: 365 * DAY };

export interface SerperBody {
  q: string;
  gl?: string;
  hl?: string;
  num?: number;
  page?: number;
  tbs?: string;
}

export interface SerperRequest {
  path: string;
  body: SerperBody;
  apiKey?: string;
}

export interface FakeSerper {
  baseUrl: string;
  key: string;
  /** Requests received, in order. */
  received: SerperRequest[];
  /** Statuses to answer, one per request, before answering normally. */
  failNext(...statuses: number[]): void;
  /** A body to answer the next request with, status 200. */
  answerNext(body: string): void;
  close(): Promise<void>;
}

interface Doc {
  title: string;
  /** When it was published, for `tbs`; undated when absent. */
  at?: number;
  /** The vendor's members besides title and position. */
  fields: Record<string, unknown>;
}

/** Google's relative dates, as Serper passes them on. */
function dateText(at: number, now: number): string {
  const hours = Math.round((now - at) / HOUR);
  if (hours < 24) return `${hours} hours ago`;
  const days = Math.round(hours / 24);
  return days < 30 ? `${days} days ago` : new Date(at).toDateString().slice(4);
}

function documents(now: number): Record<string, Doc[]> {
  const page = (title: string, path: string, at?: number, extra: Record<string, unknown> = {}): Doc => ({
    title,
    at,
    fields: { link: `https://web.example/${path}`, snippet: `${title}, a page about Rust.`, ...extra },
  });
  return {
    organic: [
      page('Rust Programming Language', 'rust', undefined, {
        sitelinks: [
          { title: 'Install', link: 'https://web.example/rust/install' },
          { title: 'Learn', link: 'https://web.example/rust/learn' },
        ],
        attributes: { 'Latest release': '1.78', Stars: 4.5 },
      }),
      page('Rust news today', 'today', now - HOUR / 2, { imageUrl: 'https://img.example/today.png' }),
      page('Rust this week', 'week', now - 3 * DAY),
      page('Rust this month', 'month', now - 20 * DAY),
      page('Rust this year', 'year', now - 200 * DAY),
      page('Rust long ago', 'old', now - 800 * DAY),
      page('Rust in February', 'february', Date.parse('2024-02-10T12:00:00Z')),
      page('Rust on the last day of March', 'march', Date.parse('2024-03-31T23:00:00Z')),
      page('Rust in April', 'april', Date.parse('2024-04-01T01:00:00Z')),
    ],
    news: [
      {
        title: 'Rust in the kernel',
        at: now - 2 * HOUR,
        fields: {
          link: 'https://news.example/kernel',
          snippet: 'Rust code lands in Linux.',
          source: 'The Register',
          imageUrl: 'https://news.example/kernel.jpg',
        },
      },
      {
        title: 'Rust foundation grants',
        at: now - 10 * DAY,
        fields: {
          link: 'https://news.example/grants',
          snippet: 'Grants for Rust maintainers.',
          source: 'InfoQ',
        },
      },
    ],
    images: [
      {
        title: 'Rust logo',
        fields: {
          imageUrl: 'https://img.example/rust.png',
          imageWidth: 1200,
          imageHeight: 1200,
          thumbnailUrl: 'https://tbn.example/rust.png',
          thumbnailWidth: 225,
          thumbnailHeight: 225,
          source: 'Wikipedia',
          domain: 'en.wikipedia.org',
          link: 'https://en.wikipedia.org/wiki/File:Rust_logo.png',
          googleUrl: 'https://www.google.com/imgres?imgurl=rust',
        },
      },
      {
        title: 'Rust crab Ferris',
        fields: {
          imageUrl: 'https://img.example/ferris.png',
          imageWidth: 800,
          imageHeight: 600,
          source: 'rustacean.net',
          domain: 'rustacean.net',
          link: 'https://rustacean.net/',
        },
      },
    ],
    videos: [
      {
        title: 'Rust in 100 Seconds',
        at: now - 5 * DAY,
        fields: {
          link: 'https://www.youtube.com/watch?v=5C_HPTJg5ek',
          snippet: 'Rust explained quickly.',
          imageUrl: 'https://i.ytimg.com/vi/5C_HPTJg5ek/default.jpg',
          videoUrl: 'https://www.youtube.com/watch?v=5C_HPTJg5ek',
          duration: '2:29',
          source: 'YouTube',
          channel: 'Fireship',
        },
      },
    ],
    places: [
      {
        title: 'Rust Cafe',
        fields: {
          address: 'Unter den Linden 1, Berlin',
          latitude: 52.5170365,
          longitude: 13.3888599,
          rating: 4.6,
          ratingCount: 1751,
          category: 'Cafe',
          phoneNumber: '+49 30 1234567',
          website: 'https://rust.cafe/',
          cid: '16917156524996281151',
        },
      },
      {
        title: 'Rust Bar',
        fields: {
          address: 'Friedrichstraße 2, Berlin',
          latitude: 52.52,
          longitude: 13.39,
          category: 'Bar',
          cid: '1',
        },
      },
    ],
    maps: [
      {
        title: 'Rust Cafe',
        fields: {
          address: 'Unter den Linden 1, 10117 Berlin',
          latitude: 52.5170365,
          longitude: 13.3888599,
          rating: 4.6,
          ratingCount: 1751,
          type: 'Cafe',
          types: ['Cafe', 'Coffee shop'],
          website: 'https://rust.cafe/',
          phoneNumber: '+49 30 1234567',
          openingHours: { Monday: '8 AM–6 PM' },
          thumbnailUrl: 'https://tbn.example/cafe.png',
          cid: '16917156524996281151',
          fid: '0x47a851c655f20989:0xe9c6a6b1e8c3a9b3',
          placeId: 'ChIJiQnyVcZRqEcRs6nD6LGmxuk',
        },
      },
    ],
  };
}

/** The date window a `tbs` asks for, as epoch milliseconds `[from, until)`; none for no `tbs`. */
function windowOf(tbs: string | undefined, now: number): { from: number; until: number } | undefined {
  if (!tbs) return undefined;
  const recent = /^qdr:([hdwmy])$/.exec(tbs);
  if (recent) return { from: now - (RECENT[recent[1] ?? ''] ?? 0), until: Infinity };
  const custom = /^cdr:1,cd_min:(\d{2})\/(\d{2})\/(\d{4}),cd_max:(\d{2})\/(\d{2})\/(\d{4})$/.exec(tbs);
  if (!custom) return undefined;
  const [, m1, d1, y1, m2, d2, y2] = custom;
  return {
    from: Date.parse(`${y1}-${m1}-${d1}T00:00:00Z`),
    until: Date.parse(`${y2}-${m2}-${d2}T00:00:00Z`) + DAY,
  };
}

const MEMBERS: Record<string, string> = {
  '/search': 'organic',
  '/news': 'news',
  '/images': 'images',
  '/videos': 'videos',
  '/places': 'places',
  '/maps': 'places',
};

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => resolve(text));
  });
}

export async function startFakeSerper(key = 'serper-test-key'): Promise<FakeSerper> {
  const received: SerperRequest[] = [];
  const failures: number[] = [];
  const bodies: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://serper').pathname;
    const body = JSON.parse((await read(req)) || '{}') as SerperBody;
    const apiKey = req.headers['x-api-key'] as string | undefined;
    received.push({ path, body, apiKey });
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof value === 'string' ? value : JSON.stringify(value));
    };
    const failure = failures.shift();
    if (failure !== undefined)
      return json(failure, { message: `Rejected key ${apiKey}`, statusCode: failure });
    const scripted = bodies.shift();
    if (scripted !== undefined) return json(200, scripted);
    const member = MEMBERS[path];
    if (member === undefined) return json(404, { message: 'Not found', statusCode: 404 });
    if (apiKey !== key) return json(403, { message: 'Unauthorized.', statusCode: 403 });
    const now = Date.now();
    const num = body.num ?? 10;
    const page = body.page ?? 1;
    const window = windowOf(body.tbs, now);
    const words = body.q.toLowerCase().split(/\s+/).filter(Boolean);
    const docs = (documents(now)[path === '/maps' ? 'maps' : member] ?? []).filter(
      (doc) =>
        words.some((w) => doc.title.toLowerCase().includes(w)) &&
        (window === undefined || (doc.at !== undefined && doc.at >= window.from && doc.at < window.until)),
    );
    const items = docs.slice((page - 1) * num, page * num).map((doc, i) => ({
      title: doc.title,
      ...doc.fields,
      ...(doc.at === undefined ? {} : { date: dateText(doc.at, now) }),
      position: i + 1,
    }));
    const searched = path === '/search' && page === 1 && words.includes('rust');
    json(200, {
      searchParameters: {
        q: body.q,
        gl: body.gl,
        hl: body.hl,
        num,
        page,
        type: path.slice(1),
        engine: 'google',
      },
      ...(path === '/maps' ? { ll: '@52.52,13.40,14z' } : {}),
      ...(searched
        ? {
            knowledgeGraph: {
              title: 'Rust',
              type: 'Programming language',
              imageUrl: 'https://img.example/rust-kg.png',
              description: 'Rust is a general-purpose programming language.',
              descriptionSource: 'Wikipedia',
              descriptionLink: 'https://en.wikipedia.org/wiki/Rust_(programming_language)',
              attributes: { 'Designed by': 'Graydon Hoare', 'First appeared': 'July 7, 2010' },
            },
          }
        : {}),
      [member]: items,
      ...(searched
        ? {
            peopleAlsoAsk: [
              {
                question: 'Is Rust hard to learn?',
                snippet: 'It takes a while.',
                title: 'Learning Rust',
                link: 'https://web.example/learning',
              },
            ],
            relatedSearches: [{ query: 'rust tutorial' }, { query: 'rust vs go' }],
          }
        : {}),
      credits: 1,
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    key,
    received,
    failNext: (...statuses) => failures.push(...statuses),
    answerNext: (body) => bodies.push(body),
    close: () => new Promise((r) => server.close(() => r())),
  };
}
