import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RESULTS_LISTED, SearchIndex, type SearchDocument } from '../../src/engines/searchindex/index.js';

let dir: string;
let index: SearchIndex;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sy-searchindex-'));
  // Feedback off: these tests check matching and ordering, not query expansion.
  index = new SearchIndex(join(dir, 'index.db'), { feedbackWeight: 0 });
});

afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

function doc(link: string, title: string, text: string, extra: Partial<SearchDocument> = {}): SearchDocument {
  return { link, title, text, language: 'en', ...extra };
}

const links = (query: string, extra: object = {}): string[] =>
  index.search({ query, number: 50, ...extra }).hits.map((hit) => hit.link);

describe('SearchIndex', () => {
  it('ranks a title match above a body match', () => {
    index.add([
      doc('body', 'Notes on gardening', 'A short remark about turbines in passing, then roses.'),
      doc('title', 'Turbines', 'Blades, shafts and generators of all kinds.'),
    ]);
    expect(links('turbines')).toEqual(['title', 'body']);
  });

  it('stems English words and drops stop words from the query', () => {
    index.add([doc('a', 'Run', 'We run every day.'), doc('b', 'The the', 'Of and the.')]);
    expect(links('running')).toEqual(['a']);
    expect(links('the running')).toEqual(['a']);
    // A query of stop words only still searches for them.
    expect(links('the')).toContain('b');
  });

  it('matches phrases as adjacent words and prefixes with *', () => {
    index.add([doc('p', 'x', 'boundary layer theory'), doc('q', 'y', 'layer of the boundary')]);
    expect(links('"boundary layer"')).toEqual(['p']);
    expect(links('bound*').sort()).toEqual(['p', 'q']);
  });

  it('shows short text whole and cuts long text around the query terms, as plain text', () => {
    const filler = 'Lorem ipsum dolor sit amet consectetur. '.repeat(20);
    index.add([
      doc('s', 'Wings', 'Some filler words before the supersonic wing and after it.'),
      doc('l', 'Long', `${filler}Here the transonic regime begins. ${filler}`),
    ]);
    expect(index.search({ query: 'supersonic' }).hits[0]?.snippet).toBe(
      'Some filler words before the supersonic wing and after it.',
    );
    const long = index.search({ query: 'transonic' }).hits[0]?.snippet ?? '';
    expect(long).toContain('transonic regime');
    expect(long.length).toBeLessThan(300);
    expect(long).not.toContain('<');
    index.add([doc('n', 'Lines', 'first flutter line\n\n  second   line')]);
    expect(index.search({ query: 'flutter' }).hits[0]?.snippet).toBe('first flutter line second line');
    // Each result's snippet is cut from its own text.
    index.add([doc('m', 'More', `${filler}Where the hypersonic regime begins. ${filler}`)]);
    const both = index.search({ query: 'regime' }).hits;
    expect(both.map((hit) => [hit.link, /(\w+sonic) regime/.exec(hit.snippet)?.[1]]).sort()).toEqual([
      ['l', 'transonic'],
      ['m', 'hypersonic'],
    ]);
  });

  it('pages stably with positions continuous across pages', () => {
    // Equal documents tie on score; ties are broken by id.
    index.add(Array.from({ length: 25 }, (_, i) => doc(`d${i}`, 'same', 'identical text about rockets')));
    const pages = [1, 2, 3].map((page) => index.search({ query: 'rockets', page, number: 10 }));
    const hits = pages.flatMap((page) => page.hits);
    expect(pages[0]?.total).toBe(25);
    expect(hits.map((hit) => hit.position)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(new Set(hits.map((hit) => hit.link)).size).toBe(25);
    expect(index.search({ query: 'rockets', page: 2, number: 10 }).hits).toEqual(pages[1]?.hits);
  });

  it('lists the best RESULTS_LISTED matches of a search, best first, and no more', () => {
    // The word once, twice … in a body of the same length: more occurrences, a higher score.
    const filler = (n: number) => `${'gyro '.repeat(n)}${'x '.repeat(20 - n)}`;
    index.add(
      Array.from({ length: RESULTS_LISTED + 20 }, (_, i) => doc(`d${i}`, 't', filler(i < 20 ? 2 : 1))),
    );
    const ranked = index.rank({ query: 'gyro' });
    expect(ranked).toHaveLength(RESULTS_LISTED);
    // The 20 documents with the word twice come first, then the others, ties by id.
    expect(ranked.slice(0, 20).map((hit) => hit.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(ranked.at(-1)?.id).toBe(RESULTS_LISTED);
    expect(index.search({ query: 'gyro', page: RESULTS_LISTED / 10 + 1, number: 10 }).hits).toEqual([]);
  });

  it('replaces a record added again: same kind and link, or same question', () => {
    index.add([
      doc('p', 'Page', 'gearboxes'),
      doc('p', 'Gearbox news', 'gearboxes', { kind: 'news' }),
      doc('p', 'Do gearboxes wear?', 'yes', { kind: 'question' }),
      doc('p', 'Are gearboxes loud?', 'sometimes', { kind: 'question' }),
    ]);
    index.add([doc('p', 'Do gearboxes wear?', 'slowly', { kind: 'question' })]);
    expect(index.stats().byKind).toEqual({ page: 1, news: 1, question: 2 });
    const answers = index.search({ query: 'gearboxes', kinds: ['question'] }).hits.map((h) => h.text);
    expect(answers.sort()).toEqual(['slowly', 'sometimes']);
  });

  it('replaces a document added again under the same link', () => {
    index.add([doc('x', 'Old', 'pistons')]);
    index.add([doc('x', 'New', 'propellers')]);
    expect(links('pistons')).toEqual([]);
    expect(index.search({ query: 'propellers' }).hits.map((hit) => hit.title)).toEqual(['New']);
  });

  it('filters by date range, language and country', () => {
    index.add([
      doc('jan', 'Jets', 'jets', { date: '2024-01-15', country: 'de' }),
      doc('feb', 'Jets', 'jets', { date: '2024-02-15T10:00:00Z', language: 'fr', country: 'FR' }),
      doc('mar', 'Jets', 'jets', { date: '2024-03-15' }),
    ]);
    expect(links('jets', { range: { from: '2024-02-01', to: '2024-02-15' } })).toEqual(['feb']);
    expect(links('jets', { range: { to: '2024-01-31' } })).toEqual(['jan']);
    expect(links('jets', { language: 'fr' })).toEqual(['feb']);
    // A record that declares no country is a candidate in every country.
    expect(links('jets', { country: 'DE' })).toEqual(['jan', 'mar']);
    expect(links('jets', { language: 'fr-CA' })).toEqual(['feb']);
  });

  it('never throws on hostile query text', () => {
    index.add([doc('h', 'Title', 'some text with NEAR and col: values')]);
    for (const query of [
      '"',
      '"unclosed',
      '(a OR',
      'AND OR NOT',
      '*',
      'title:x',
      '^x',
      'a AND (b',
      'NEAR(a b)',
      '',
      '   ',
      '-x +y',
      "it's",
    ]) {
      expect(() => index.search({ query })).not.toThrow();
    }
    expect(links('title:text')).toEqual(['h']);
  });

  it('finds Chinese and Japanese text by its characters', () => {
    index.add([
      doc('zh', '北京天气', '今天北京的天气很好。', { language: 'zh' }),
      doc('ja', '東京都庁', '東京は日本の首都です。Tokyo2024', { language: 'ja' }),
    ]);
    expect(links('天气')).toEqual(['zh']);
    expect(links('東京')).toEqual(['ja']);
    expect(links('首都')).toEqual(['ja']);
    expect(links('日本abc')).toEqual([]);
    expect(links('の首tokyo2024')).toEqual([]);
    expect(links('です。tokyo2024')).toEqual(['ja']);
    const snippet = index.search({ query: '首都' }).hits[0]?.snippet ?? '';
    expect(snippet).toBe('東京は日本の首都です。Tokyo2024');
  });

  it('reorders by terms of the top documents when feedback is on, bringing in no new ones', () => {
    const ranking = { ...index.ranking, feedbackWeight: 2, feedbackDocs: 1, feedbackTerms: 5 };
    index.add([
      doc('a', 'Hypersonic heating', 'hypersonic heating ablation ablation heating'),
      doc('b', 'Ablation', 'ablation heating of reentry bodies'),
      doc('c', 'Tunnels', 'hypersonic wind tunnels'),
      doc('d', 'Notes', 'a hypersonic note among many other words about heating and ablation here'),
    ]);
    const plain = index.rank({ query: 'hypersonic' }, { ...ranking, feedbackWeight: 0 });
    const fed = index.rank({ query: 'hypersonic' }, ranking);
    const link = (id: number) => ['', 'a', 'b', 'c', 'd'][id];
    expect(fed.map((hit) => link(hit.id)).sort()).toEqual(['a', 'c', 'd']);
    // d shares the feedback terms (heating, ablation) of the top document; c does not.
    const at = (hits: typeof fed, name: string) => hits.findIndex((hit) => link(hit.id) === name);
    expect(at(fed, 'd')).toBeLessThan(at(fed, 'c'));
    expect(at(plain, 'd')).toBeGreaterThan(at(plain, 'c'));
  });
});
