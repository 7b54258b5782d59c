/**
 * Ranking by meaning as a client meets it: records indexed by `switchyard search index` (the
 * compiled command, which embeds them with the packaged sentence encoder), then /serp/web over
 * HTTP from two servers on the same index file, one with `search.semantic_reranking` on (the
 * default) and one with it off.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'sy-meaning-'));
const indexPath = join(dir, 'index.db');

/**
 * Pages on pasta where words and meaning disagree: the query "cooking pasta" shares its words
 * with the trade pages (pasta, in their titles) far more than with the dinner recipe, which says
 * "cooking" once and never "pasta", but is the one about cooking it.
 */
const PAGES = [
  [
    'Pasta import tariffs',
    'Customs duties on pasta imports, tariff codes for pasta and the forms an importer of pasta files.',
  ],
  [
    'Dinner tonight',
    'Boil the spaghetti in plenty of salted water until tender, then drain it; cooking takes ten minutes.',
  ],
  ['Pasta factory machines', 'Extrusion dies, presses and drying tunnels of an industrial pasta line.'],
  ['Kitchen knives', 'Sharpening a chef knife on a whetstone before cooking.'],
  ['Garden tools', 'Spades, rakes and hoses for the vegetable garden.'],
];

let on: TestServer;
let off: TestServer;
let indexed: string;

beforeAll(async () => {
  const records = join(dir, 'pages.jsonl');
  writeFileSync(
    records,
    PAGES.map(([title, text], i) =>
      JSON.stringify({ type: 'organic', link: `https://food.example/${i}`, title, text }),
    ).join('\n'),
  );
  const { stdout } = await run(
    resolve('bin/switchyard'),
    ['search', 'index', records, '--index', indexPath],
    {
      env: { ...process.env, SWITCHYARD_CONFIG: '' },
    },
  );
  indexed = stdout;
  on = await startServer({ 'search.index_path': indexPath, 'search.workers': 1 });
  off = await startServer({
    'search.index_path': indexPath,
    'search.workers': 1,
    'search.semantic_reranking': false,
  });
});

afterAll(async () => {
  await on?.close();
  await off?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function titles(server: TestServer, query: string): Promise<string[]> {
  const answer = await server.post('/serp/web', { query }, await server.token());
  expect(answer.status, answer.text).toBe(200);
  return (answer.body.organic as { title: string }[]).map((item) => item.title);
}

describe('ranking by meaning', () => {
  it('embeds the documents of a small index as it indexes them', () => {
    expect(indexed).toMatch(
      /^indexed 5 documents .*\nembedded 5 documents for ranking by meaning in [\d.]+ s\n$/,
    );
  });

  it('moves up the page whose meaning the query asks for, where the words point elsewhere', async () => {
    const lexical = await titles(off, 'cooking pasta');
    const meaning = await titles(on, 'cooking pasta');
    // The same results, in another order: the recipe last by words, above a trade page by meaning.
    expect(meaning).toHaveLength(lexical.length);
    expect(new Set(meaning)).toEqual(new Set(lexical));
    expect(lexical.at(-1)).toBe('Dinner tonight');
    expect(meaning.indexOf('Dinner tonight'), JSON.stringify({ lexical, meaning })).toBeLessThan(
      meaning.indexOf('Pasta import tariffs'),
    );
  });

  it('leaves the answer to an exact title as it was', async () => {
    for (const title of ['Pasta import tariffs', 'Kitchen knives']) {
      const lexical = await titles(off, title);
      expect(lexical[0]).toBe(title);
      expect(await titles(on, title)).toEqual(lexical);
    }
  });
});
