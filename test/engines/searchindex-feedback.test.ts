import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spaceCjk } from '../../src/engines/searchindex/cjk.js';
import { expansionTerms } from '../../src/engines/searchindex/feedback.js';
import { TOKENIZER } from '../../src/engines/searchindex/schema.js';
import { Stemmer } from '../../src/engines/searchindex/stemmer.js';

let db: Database.Database;

beforeEach(() => {
  db = new Database(':memory:');
});

afterEach(() => {
  db.close();
});

/** Term counts as the index makes them (CJK spaced, then FTS5): what the stemmer must agree with. */
function indexed(text: string): Map<string, number> {
  db.exec(`CREATE VIRTUAL TABLE reference USING fts5(w, tokenize = '${TOKENIZER}')`);
  db.exec('CREATE VIRTUAL TABLE reference_instances USING fts5vocab(reference, instance)');
  db.prepare('INSERT INTO reference (w) VALUES (?)').run(spaceCjk(text));
  const rows = db
    .prepare<[], { term: string; n: number }>(
      'SELECT term, count(*) AS n FROM reference_instances GROUP BY term',
    )
    .all();
  return new Map(rows.map((row) => [row.term, row.n]));
}

describe('Stemmer', () => {
  const prose = readFileSync(new URL('../../docs/search.md', import.meta.url), 'utf8');
  const mixed =
    'Über die Strömung: naïve CAFÉ flows, flowing and flowed; two-dimensional Mach 2.5 ' +
    'boundary-layers at 10,000 ft. 東京都庁は日本の首都です。Tokyo2024 ｆｕｌｌｗｉｄｔｈ ǅemal';

  it('counts the terms of real text exactly as the index tokenizes it', () => {
    const stemmer = new Stemmer(db);
    const [counts] = stemmer.count([prose]);
    expect(counts).toEqual(indexed(prose));
    expect(counts?.get('feedback')).toBeGreaterThan(0);
  });

  it('agrees with the index on case, diacritics, digits, hyphens and CJK characters', () => {
    const stemmer = new Stemmer(db);
    const [counts] = stemmer.count([mixed]);
    expect(counts).toEqual(indexed(mixed));
    // "flows", "flowing" and "flowed" are one term; each CJK character is a term of its own.
    expect(counts?.get('flow')).toBe(3);
    expect(counts?.get('京')).toBe(1);
  });

  it('gives the same counts from remembered words as from new ones, per text', () => {
    const stemmer = new Stemmer(db);
    const texts = [mixed, prose, mixed.toUpperCase()];
    const first = stemmer.count(texts);
    const again = stemmer.count(texts);
    expect(again).toEqual(first);
    expect(first[0]).toEqual(first[2]);
  });

  it('counts only the terms asked for', () => {
    const stemmer = new Stemmer(db);
    const [counts] = stemmer.count([mixed], new Set(['flow', 'boundari', 'absent']));
    expect([...(counts ?? [])].sort()).toEqual([
      ['boundari', 1],
      ['flow', 3],
    ]);
  });
});

describe('expansionTerms', () => {
  const vectors = new Map<number, Map<string, number>>([
    [
      1,
      new Map([
        ['ablation', 2],
        ['heating', 2],
      ]),
    ],
    [
      2,
      new Map([
        ['tunnel', 3],
        ['wind', 1],
      ]),
    ],
  ]);
  const terms = (sharpness: number, scores = [6, 4]) =>
    expansionTerms(
      scores.map((score, i) => ({ id: i + 1, score })),
      (id) => vectors.get(id) ?? new Map(),
      new Set(),
      10,
      sharpness,
    );
  const weightOf = (list: ReturnType<typeof terms>, term: string) =>
    list.find((t) => t.term === term)?.weight ?? 0;

  it('gives every top document the same vote at sharpness 0', () => {
    const list = terms(0);
    expect(weightOf(list, 'ablation')).toBeCloseTo(0.25);
    expect(weightOf(list, 'tunnel')).toBeCloseTo(0.375);
    expect(list.reduce((sum, t) => sum + t.weight, 0)).toBeCloseTo(1);
  });

  it('weighs each document by exp(sharpness × score), so the best one outvotes the rest', () => {
    // Votes e^(0.5·6) and e^(0.5·4): the first document holds e/(e + 1) of the weight.
    const share = Math.E / (Math.E + 1);
    const list = terms(0.5);
    expect(weightOf(list, 'ablation')).toBeCloseTo(share / 2);
    expect(weightOf(list, 'wind')).toBeCloseTo((1 - share) / 4);
    // Only differences of scores count: shifting every score changes nothing.
    expect(terms(0.5, [106, 104])).toEqual(list);
    expect(weightOf(terms(20), 'tunnel')).toBeLessThan(1e-6);
  });

  it('skips stop words, numbers and short tokens, and keeps the most weighted terms', () => {
    const list = expansionTerms(
      [{ id: 1, score: 1 }],
      () =>
        new Map([
          ['thi', 5],
          ['42', 5],
          ['of', 5],
          ['shock', 3],
          ['wave', 2],
          ['layer', 1],
        ]),
      new Set(['thi']),
      2,
      0.5,
    );
    expect(list.map((t) => t.term)).toEqual(['shock', 'wave']);
    expect(list[0]?.weight).toBeCloseTo(0.6);
  });
});
