/**
 * Document frequencies for feedback terms (frequencies.ts): counted on a small index, a common
 * term estimated from a sample on a large one (here "large" from 1 000 documents on), a rare
 * term always counted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentFrequencies } from '../../src/engines/searchindex/frequencies.js';
import { openIndex } from '../../src/engines/searchindex/open.js';
import { SearchIndex } from '../../src/engines/searchindex/search-index.js';
import { Stemmer } from '../../src/engines/searchindex/stemmer.js';

const DOCUMENTS = 6_000;
let dir: string;
let db: ReturnType<typeof openIndex>['db'];
let stemmer: Stemmer;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sy-frequencies-'));
  const file = join(dir, 'index.db');
  const index = new SearchIndex(file);
  // "gyros" in every third document, "rotor" in every other, "vane" in 7 of them.
  index.add(
    Array.from({ length: DOCUMENTS }, (_, i) => ({
      link: `https://example.com/${i}`,
      title: `page ${i}`,
      text: [
        i % 3 === 0 ? 'gyros' : 'plain',
        i % 2 === 0 ? 'rotor' : 'text',
        i % 857 === 1 ? 'vane' : '',
      ].join(' '),
    })),
  );
  index.close();
  db = openIndex(file).db;
  stemmer = new Stemmer(db);
});

afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('document frequencies', () => {
  it('counts every term exactly on a small index', () => {
    const frequencies = new DocumentFrequencies(db, stemmer, DOCUMENTS + 1);
    expect(frequencies.of('gyro', DOCUMENTS)).toBe(DOCUMENTS / 3);
    expect(frequencies.of('rotor', DOCUMENTS)).toBe(DOCUMENTS / 2);
    expect(frequencies.of('vane', DOCUMENTS)).toBe(7);
    expect(frequencies.of('absent', DOCUMENTS)).toBe(0);
  });

  it('estimates a common term from a sample on a large index, and counts a rare one', () => {
    const frequencies = new DocumentFrequencies(db, stemmer, 1_000);
    const gyros = frequencies.of('gyro', DOCUMENTS);
    const rotor = frequencies.of('rotor', DOCUMENTS);
    // Estimated, not counted: near the count, and not it (2 000 evenly spaced ids of 6 000).
    expect(Math.abs(gyros - DOCUMENTS / 3)).toBeLessThan(DOCUMENTS / 30);
    expect(Math.abs(rotor - DOCUMENTS / 2)).toBeLessThan(DOCUMENTS / 20);
    expect([gyros, rotor]).not.toEqual([DOCUMENTS / 3, DOCUMENTS / 2]);
    expect(frequencies.of('vane', DOCUMENTS)).toBe(7);
  });
});
