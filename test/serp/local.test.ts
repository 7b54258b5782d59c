/**
 * /serp/web served by the local index, over HTTP: every type, every parameter, the members
 * around organic results, empty results, CJK, and date ranges. The index is built from the
 * fixtures by the same ingestion the CLI uses.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchIndex } from '../../src/engines/searchindex/index.js';
import { ingest } from '../../src/cli/search-ingest.js';
import { SerpResponse } from '../../src/contract/serp.js';
import { checkSchema } from '../../src/contract/validate.js';
import { startServer, type TestServer } from '../support/server.js';
import { expectError, fieldsOf } from '../support/expect.js';

const FIXTURES = resolve('test/serp/fixtures');
const dir = mkdtempSync(join(tmpdir(), 'sy-serp-local-'));
const indexPath = join(dir, 'index.db');
let server: TestServer;
let token: string;

type Item = Record<string, unknown>;

beforeAll(async () => {
  const index = new SearchIndex(indexPath);
  const result = await ingest(index, [join(FIXTURES, 'records.jsonl'), join(FIXTURES, 'site')], {
    baseUrl: 'https://docs.example/',
  });
  expect(result.rejected).toBe(0);
  const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
  index.add([
    {
      kind: 'news',
      link: 'https://news.example/now',
      title: 'Glider record today',
      text: 'glider',
      date: minutesAgo(10),
    },
    {
      kind: 'news',
      link: 'https://news.example/hours',
      title: 'Glider record this morning',
      text: 'glider',
      date: minutesAgo(300),
    },
    {
      kind: 'news',
      link: 'https://news.example/days',
      title: 'Glider record last week',
      text: 'glider',
      date: minutesAgo(4 * 1440),
    },
  ]);
  index.close();
  server = await startServer({ 'search.index_path': indexPath });
  token = await server.token();
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function search(
  body: Record<string, unknown>,
  as = token,
): Promise<Record<string, Item[] | Item | undefined>> {
  const answer = await server.post('/serp/web', body, as);
  expect(answer.status, answer.text).toBe(200);
  // Every answer has the contract's shape.
  expect(checkSchema(SerpResponse, answer.body)).toEqual([]);
  return answer.body as Record<string, Item[] | Item | undefined>;
}

const list = (value: Item[] | Item | undefined): Item[] => (Array.isArray(value) ? value : []);
const linksOf = (value: Item[] | Item | undefined) => list(value).map((item) => item.link);

describe('/serp/web on the local index: search', () => {
  it('ranks organic results with snippets, dates, images, attributes and sitelinks', async () => {
    const result = await search({ query: 'swept wings' });
    const organic = list(result.organic);
    expect(organic[0]).toMatchObject({
      link: 'https://aero.example/wings',
      title: 'Swept wings',
      position: 1,
      date: '2024-03-02',
      image_url: 'https://aero.example/img/swept.png',
      attributes: { Author: 'R. Jones' },
    });
    expect(String(organic[0]?.snippet)).toMatch(/swept wings/i);
    expect(organic.map((item) => item.position)).toEqual(organic.map((_, i) => i + 1));
    // Other pages of the same site on the query, shown under its first result.
    const shown = new Set(organic.map((item) => item.link));
    const sitelinks = (organic[0]?.sitelinks ?? []) as Item[];
    for (const link of sitelinks) {
      expect(String(link.link)).toMatch(/^https:\/\/aero\.example\//);
      expect(shown.has(link.link)).toBe(false);
    }
    const firstPage = await search({ query: 'wings', number: 1 });
    expect(list(firstPage.organic)).toHaveLength(1);
    const links = (list(firstPage.organic)[0]?.sitelinks ?? []) as Item[];
    expect(links.length).toBeGreaterThan(0);
  });

  it('answers a knowledge graph for a named entity and people also ask for the topic', async () => {
    const concorde = await search({ query: 'concorde' });
    expect(concorde.knowledge_graph).toEqual({
      type: 'Supersonic airliner',
      title: 'Concorde',
      image_url: 'https://encyclopedia.example/concorde.png',
      attributes: { 'First flight': '2 March 1969', Retired: '2003' },
      description: 'Concorde is a retired Anglo-French supersonic airliner that flew from 1976 to 2003.',
      description_link: 'https://encyclopedia.example/Concorde',
      description_source: 'Encyclopedia',
    });
    const swept = await search({ query: 'swept wings' });
    expect(swept.knowledge_graph).toBeUndefined();
    expect(list(swept.people_also_ask)[0]).toEqual({
      question: 'Why are airliner wings swept back?',
      snippet:
        'Sweeping the wings delays shock waves, so an airliner can cruise closer to the speed of sound.',
      title: 'Swept wings',
      link: 'https://aero.example/wings',
    });
  });

  it("suggests related searches from the token's own past queries and the pages found", async () => {
    const mine = await server.token();
    const other = await server.token();
    await search({ query: 'wings drag ratio' }, mine);
    const related = list((await search({ query: 'wings' }, mine)).related_searches).map((r) => r.query);
    expect(related).toContain('wings drag ratio');
    const theirs = list((await search({ query: 'wings' }, other)).related_searches).map((r) => r.query);
    expect(theirs).not.toContain('wings drag ratio');
    // Refinements from words the found pages share.
    expect(theirs.length).toBeGreaterThan(0);
    for (const query of theirs) expect(query).toMatch(/^wings \p{L}+$/u);
  });

  it('pages stably: disjoint pages, continuous positions, empty past the end', async () => {
    const all = list((await search({ query: 'wings', number: 100 })).organic);
    expect(all.length).toBeGreaterThanOrEqual(3);
    const paged: Item[] = [];
    for (let page = 1; page <= all.length; page += 1)
      paged.push(...list((await search({ query: 'wings', number: 1, page })).organic));
    expect(paged.map((item) => item.link)).toEqual(all.map((item) => item.link));
    expect(paged.map((item) => item.position)).toEqual(all.map((_, i) => i + 1));
    const beyond = await search({ query: 'wings', page: all.length + 1, number: 1 });
    expect(beyond.organic).toEqual([]);
  });

  it('answers an empty organic list when nothing matches', async () => {
    const result = await search({ query: 'zzyzx qwxv' });
    expect(result).toEqual({ organic: [] });
  });

  it('matches phrases, prefixes, and takes query syntax as plain text', async () => {
    expect(linksOf((await search({ query: '"tip vortices"' })).organic)).toEqual([
      'https://aero.example/wings/winglets',
    ]);
    expect(linksOf((await search({ query: 'vort*' })).organic)).toEqual(
      expect.arrayContaining(['https://aero.example/wings/winglets', 'https://aero.example/wings/delta']),
    );
    for (const query of ['"', 'NEAR(a b)', 'title:wings', '(wings OR', '*', 'AND NOT'])
      await search({ query });
  });

  it('filters by date range, relative and absolute', async () => {
    expect(
      linksOf((await search({ query: 'wings', range: '2024-03-01..2024-03-31' })).organic).sort(),
    ).toEqual(['https://aero.example/wings', 'https://aero.example/wings/delta']);
    const glider = async (range: string) =>
      linksOf((await search({ query: 'glider', type: 'news', range })).news);
    expect(await glider('h')).toEqual(['https://news.example/now']);
    expect((await glider('qdr:d')).sort()).toEqual([
      'https://news.example/hours',
      'https://news.example/now',
    ]);
    expect((await glider('w')).length).toBe(3);
    expect(await glider('2001-01-01..2001-12-31')).toEqual([]);
  });

  it('filters by country and language, keeping records that declare none', async () => {
    const birds = async (country: string) => linksOf((await search({ query: 'birds fly', country })).organic);
    expect(await birds('gb')).toEqual(['https://other.example/birds']);
    expect(await birds('US')).toEqual([]);
    expect(linksOf((await search({ query: 'rudder', country: 'FR' })).organic)).toEqual([
      'https://docs.example/rudder.txt',
    ]);
    expect(linksOf((await search({ query: '天气', language: 'zh-CN' })).organic)).toEqual([
      'https://zh.example/beijing',
    ]);
    expect(linksOf((await search({ query: '天气', language: 'en' })).organic)).toEqual([]);
  });

  it('finds CJK documents by their characters, not only whole runs', async () => {
    const tokyo = list((await search({ query: '富士山', language: 'ja' })).organic);
    expect(tokyo.map((item) => item.link)).toEqual(['https://ja.example/tokyo']);
    expect(tokyo[0]?.snippet).toBe('東京都庁の展望室から富士山が見えます。');
    expect(linksOf((await search({ query: '展望', language: 'ja' })).organic)).toEqual([
      'https://ja.example/tokyo',
    ]);
    expect(linksOf((await search({ query: '北京 天气', language: 'zh' })).organic)).toEqual([
      'https://zh.example/beijing',
    ]);
  });

  it('searches the ingested HTML, Markdown and text files', async () => {
    const [page] = list((await search({ query: 'propeller pitch' })).organic);
    expect(page).toMatchObject({
      link: 'https://props.example/guide',
      title: 'Propeller Guide',
      date: '2024-04-01T07:30:00.000Z',
      image_url: 'https://props.example/img/propeller.png',
    });
    expect(linksOf((await search({ query: 'ailerons roll' })).organic)).toEqual([
      'https://docs.example/notes.md',
    ]);
    expect(linksOf((await search({ query: 'tracking' })).organic)).toEqual([]);
  });
});

describe('/serp/web on the local index: other types', () => {
  it('news: title, link, snippet, date, source, image_url, position', async () => {
    const news = list((await search({ query: 'supersonic', type: 'news' })).news);
    expect(news).toEqual([
      {
        title: 'Supersonic airliner flies again',
        link: 'https://news.example/2024/supersonic-return',
        snippet: 'A quiet supersonic demonstrator completed its first flight over the desert.',
        date: '2024-05-10T08:00:00Z',
        source: 'Air News',
        image_url: 'https://news.example/img/x59.jpg',
        position: 1,
      },
    ]);
    const [factory] = list((await search({ query: 'factory', type: 'news' })).news);
    expect(factory?.source).toBe('news.example');
  });

  it('images: image records and pages that carry an image', async () => {
    expect(list((await search({ query: 'concorde', type: 'images' })).images)).toEqual([
      {
        title: 'Concorde at dusk',
        image_url: 'https://photos.example/concorde.jpg',
        link: 'https://photos.example/concorde',
        source: 'Photo Archive',
        position: 1,
      },
    ]);
    const swept = list((await search({ query: 'swept', type: 'images' })).images);
    expect(swept.map((item) => item.image_url)).toContain('https://aero.example/img/swept.png');
  });

  it('videos: duration, source, thumbnail', async () => {
    expect(list((await search({ query: 'wind tunnel', type: 'videos' })).videos)).toEqual([
      {
        title: 'Wind tunnel test of a swept wing',
        link: 'https://video.example/watch/1',
        snippet: 'Smoke shows the flow over a swept wing in a wind tunnel.',
        image_url: 'https://video.example/thumb/1.jpg',
        duration: '4:12',
        source: 'AeroLab',
        date: '2024-01-12',
        position: 1,
      },
    ]);
  });

  it('places and maps: address, coordinates, rating, contact; country narrows', async () => {
    const museum = {
      title: 'Air and Space Museum',
      address: '600 Independence Ave SW, Washington, DC',
      latitude: 38.8882,
      longitude: -77.0199,
      rating: 4.7,
      rating_count: 38211,
      category: 'Museum',
      phone_number: '+1 202-633-2214',
      website: 'https://airandspace.si.edu',
      position: 1,
    };
    expect((await search({ query: 'museum', type: 'places' })).places).toEqual([museum]);
    expect((await search({ query: 'museum', type: 'maps' })).maps).toEqual([museum]);
    const gb = list((await search({ query: 'museum', type: 'maps', country: 'GB' })).maps);
    expect(gb.map((p) => p.title)).toEqual(['Imperial War Museum Duxford']);
  });

  it('empty results keep the member of the type asked', async () => {
    for (const type of ['news', 'images', 'videos', 'places', 'maps'])
      expect(await search({ query: 'zzyzx', type })).toEqual({ [type]: [] });
  });

  it('refuses bad parameters naming the field', async () => {
    for (const [field, value] of [
      ['range', 'fortnight'],
      ['type', 'books'],
      ['number', 101],
      ['page', 0],
      ['country', 'USA'],
    ] as const) {
      const answer = await server.post('/serp/web', { query: 'x', [field]: value }, token);
      expectError(answer, 400, 'bad_request');
      expect(fieldsOf(answer)).toEqual([field]);
    }
  });
});
