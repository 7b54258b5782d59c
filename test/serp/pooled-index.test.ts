/**
 * The local index searched on worker threads (pooled-index.ts): the first search of an idle pool
 * runs on the calling thread while a worker opens the index; later ones run on the workers and
 * answer exactly what the index answers on the calling thread, every type and page, the queries
 * they remember (written here, the index's one writer) included. The event loop keeps turning
 * while the workers search.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SearchIndex } from '../../src/engines/searchindex/index.js';
import { ingest } from '../../src/cli/search-ingest.js';
import { LocalIndex } from '../../src/providers/serp/local.js';
import { PooledIndex } from '../../src/providers/serp/pooled-index.js';
import type { SearchType, SerpQuery } from '../../src/providers/serp/types.js';

const FIXTURES = resolve('test/serp/fixtures');
const dir = mkdtempSync(join(tmpdir(), 'sy-serp-pooled-'));
const indexPath = join(dir, 'index.db');
const options = {
  rememberQueries: true,
  publicBaseUrl: 'http://127.0.0.1:1',
  semanticReranking: true,
  embedCandidates: 0,
};
const signal = new AbortController().signal;
const query = (
  q: string,
  more: { type?: SearchType; page?: number; number?: number; language?: string } = {},
): SerpQuery => ({
  query: q,
  type: more.type ?? 'search',
  page: more.page ?? 1,
  number: more.number ?? 10,
  country: 'US',
  language: more.language ?? 'en',
});

let pooled: PooledIndex;
let reference: LocalIndex;

beforeAll(async () => {
  const index = new SearchIndex(indexPath);
  const result = await ingest(index, [join(FIXTURES, 'records.jsonl'), join(FIXTURES, 'site')], {
    baseUrl: 'https://docs.example/',
  });
  expect(result.rejected).toBe(0);
  index.close();
  pooled = new PooledIndex(indexPath, options, 2);
  // The same file read on this thread, remembering nothing of its own.
  reference = new LocalIndex(new SearchIndex(indexPath), { ...options, rememberQueries: false });
});

afterAll(async () => {
  await pooled.close();
  await reference.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the local index on worker threads', () => {
  it('answers the first search itself while a thread opens the index, then hands searches to the threads', async () => {
    expect(pooled.pooled).toBe(false);
    const first = await pooled.search(query('wings'), signal);
    expect(first).toEqual(await reference.search(query('wings'), signal));
    await vi.waitFor(() => expect(pooled.pooled).toBe(true), { timeout: 20_000, interval: 20 });
  });

  it('answers on the threads what the index answers here, for every type and page', async () => {
    expect(pooled.pooled).toBe(true);
    const queries = [
      query('wings'),
      query('wings', { page: 2, number: 2 }),
      query('swept wings'),
      query('supersonic', { type: 'news' }),
      query('concorde', { type: 'images' }),
      query('museum', { type: 'places' }),
      query('wings', { type: 'videos' }),
      query('北京 天气'),
      query('zzyzx qwxv'),
    ];
    const answers = await Promise.all(queries.map((q) => pooled.search(q, signal)));
    for (const [i, q] of queries.entries())
      expect(answers[i], q.query).toEqual(await reference.search(q, signal));
    expect(answers[0]!.organic!.length).toBeGreaterThan(0);
    expect(answers[3]!.news!.length).toBeGreaterThan(0);
    expect(answers[4]!.images!.length).toBeGreaterThan(0);
  });

  it('keeps the event loop turning while the threads search', async () => {
    let turns = 0;
    const ticking = setInterval(() => (turns += 1), 1);
    const searches = Array.from({ length: 200 }, (_, i) =>
      pooled.search(query(i % 2 ? 'wings' : 'concorde'), signal),
    );
    await Promise.all(searches);
    clearInterval(ticking);
    // 200 searches on this thread would have run back to back without a timer firing between them.
    expect(turns).toBeGreaterThan(2);
  });

  it('remembers a scope’s queries found on the threads within a second, for its related searches', async () => {
    await pooled.search(query('swept wings delta'), signal, 'token-a');
    // Written together with other searches' within a second.
    await vi.waitFor(
      async () => {
        const related = await pooled.search(query('wings'), signal, 'token-a');
        expect(related.related_searches?.map((r) => r.query)).toContain('swept wings delta');
      },
      { timeout: 10_000, interval: 200 },
    );
    const other = await pooled.search(query('wings'), signal, 'token-b');
    expect(other.related_searches?.map((r) => r.query) ?? []).not.toContain('swept wings delta');
  });
});

describe('documents added while the threads keep what they know of the index', () => {
  it('are filtered at once: a page in French is left out of a search in English', async () => {
    // An index whose pages declare no language: a search in English needs no language filter, and
    // each thread keeps that knowledge between searches.
    const file = join(dir, 'languages.db');
    const setup = new SearchIndex(file);
    setup.add(
      Array.from({ length: 20 }, (_, i) => ({
        kind: 'page' as const,
        link: `https://en.example/${i}`,
        title: `Wings ${i}`,
        text: 'wings lift drag',
      })),
    );
    setup.close();
    const threads = new PooledIndex(file, options, 2);
    try {
      const english = query('wings', { number: 50 });
      await threads.search(english, signal);
      await vi.waitFor(() => expect(threads.pooled).toBe(true), { timeout: 20_000, interval: 20 });
      await Promise.all(Array.from({ length: 8 }, () => threads.search(english, signal)));
      // Another connection, as `switchyard search index` while the server runs.
      const writer = new SearchIndex(file);
      writer.add([
        {
          kind: 'page',
          link: 'https://fr.example/ailes',
          title: 'Wings, ailes',
          text: 'wings',
          language: 'fr',
        },
      ]);
      writer.close();
      const answers = await Promise.all(Array.from({ length: 8 }, () => threads.search(english, signal)));
      for (const answer of answers) {
        expect(answer.organic).toHaveLength(20);
        expect(answer.organic!.map((o) => o.link)).not.toContain('https://fr.example/ailes');
      }
      const french = await threads.search(query('wings', { number: 50, language: 'fr' }), signal);
      expect(french.organic!.map((o) => o.link)).toContain('https://fr.example/ailes');
    } finally {
      await threads.close();
    }
  });
});
