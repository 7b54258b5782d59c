// Search quality of the local engine (src/engines/searchindex) on Cranfield 1400: nDCG@10
// (gain 5 - grade), MAP over 1000 results and MAP@100, on the odd (tuning) and even (held-out
// test) queries. Plain BM25 (title and body weighted 1/1, no feedback) is reported beside the
// lexical ranking and the lexical ranking reordered by meaning (sentence embeddings of every
// document, made as `switchyard search index` makes them). Tuning searches grids on odd queries
// only and the test split is read once. Each reported variant also gives its time per query
// (rank() and the reordering, median over the even queries).
// Usage: npm run build && node bench/search-quality.mjs [--data DIR] [--no-tune]
//   (--no-tune skips the lexical grid; the grid of the reordering by meaning always runs)
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SearchIndex, DEFAULT_MEANING, DEFAULT_RANKING } from '../dist/engines/searchindex/index.js';
import { machine, saveReport } from './common.mjs';

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: '/work/shared/data/cranfield' },
    'no-tune': { type: 'boolean', default: false },
  },
});

/** Splits a Cranfield file into records of `.X` fields. */
function records(text) {
  return text
    .split(/^\.I /m)
    .slice(1)
    .map((chunk) => {
      const fields = {};
      let key = 'I';
      for (const line of chunk.split('\n')) {
        const marker = /^\.([A-Z])\s*$/.exec(line);
        if (marker) key = marker[1];
        else fields[key] = `${fields[key] ?? ''}${line}\n`;
      }
      return fields;
    });
}

const docs = records(readFileSync(join(values.data, 'cran.all.1400'), 'utf8')).map((r) => ({
  link: `cran:${Number(r.I)}`,
  title: (r.T ?? '').trim(),
  text: (r.W ?? '').trim(),
  language: 'en',
}));
// Queries are numbered by file order, not by their .I (see the collection's README).
const queries = records(readFileSync(join(values.data, 'cran.qry'), 'utf8')).map((r, i) => ({
  number: i + 1,
  text: (r.W ?? '').trim(),
}));
const qrels = new Map();
// Each query's one -1 line names the paper its question was drawn from ("no judgement"). Like
// the collection's reference figures, it counts as not relevant; how often it ranks first is
// reported because a lexical ranking naturally puts it there.
const sources = new Map();
for (const line of readFileSync(join(values.data, 'cranqrel'), 'utf8').split('\n')) {
  const [q, d, grade] = line.trim().split(/\s+/).map(Number);
  if (q && grade === -1) sources.set(q, `cran:${d}`);
  if (!q || !(grade >= 1 && grade <= 4)) continue;
  if (!qrels.has(q)) qrels.set(q, new Map());
  qrels.get(q).set(`cran:${d}`, 5 - grade);
}

const dir = mkdtempSync(join(tmpdir(), 'search-quality-'));
const index = new SearchIndex(join(dir, 'index.db'));
index.add(docs);
const embedStarted = process.hrtime.bigint();
await index.embedDocuments(docs.length);
const embedMsPerDocument = Number(process.hrtime.bigint() - embedStarted) / 1e6 / docs.length;
console.log(`embedded ${docs.length} documents, ${embedMsPerDocument.toFixed(1)} ms each`);
const linkOf = new Map(docs.map((doc, i) => [i + 1, doc.link])); // ids follow insertion order

/** The lexical ranking of each query, kept for the grid of the reordering by meaning. */
const lexical = new Map();

/** A query's ranking: lexical, then reordered by meaning when `meaning` is given. */
async function ranked(query, ranking, meaning, keep) {
  const request = { query: query.text };
  let first = keep ? lexical.get(query.number) : undefined;
  if (!first) {
    first = index.rank(request, ranking);
    if (keep) lexical.set(query.number, first);
  }
  return meaning ? index.reorderByMeaning(request, first, meaning) : first;
}

async function evaluate(query, ranking, meaning, keep = false) {
  const judged = qrels.get(query.number);
  const started = process.hrtime.bigint();
  const all = await ranked(query, ranking, meaning, keep);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const ranked1000 = all.slice(0, 1000).map((hit) => linkOf.get(hit.id));
  let dcg = 0;
  let found = 0;
  let precisions = 0;
  let precisions100 = 0;
  ranked1000.forEach((link, i) => {
    const gain = judged.get(link) ?? 0;
    if (i < 10) dcg += (2 ** gain - 1) / Math.log2(i + 2);
    if (gain > 0) {
      precisions += ++found / (i + 1);
      if (i < 100) precisions100 += found / (i + 1);
    }
  });
  const ideal = [...judged.values()].sort((a, b) => b - a).slice(0, 10);
  const idcg = ideal.reduce((sum, gain, i) => sum + (2 ** gain - 1) / Math.log2(i + 2), 0);
  return {
    ndcg: dcg / idcg,
    ap: precisions / judged.size,
    ap100: precisions100 / judged.size,
    ms,
    sourceFirst: ranked1000[0] === sources.get(query.number),
  };
}

async function measure(split, ranking, meaning, keep = false) {
  const chosen = queries.filter((q) => qrels.has(q.number) && q.number % 2 === (split === 'dev' ? 1 : 0));
  const results = [];
  for (const q of chosen) results.push(await evaluate(q, ranking, meaning, keep));
  const mean = (key) => Number((results.reduce((s, r) => s + r[key], 0) / results.length).toFixed(4));
  const times = results.map((r) => r.ms).sort((a, b) => a - b);
  const median = Number(times[times.length >> 1].toFixed(2));
  const sourceFirst = results.filter((r) => r.sourceFirst).length;
  return {
    queries: results.length,
    ndcg_at_10: mean('ndcg'),
    map: mean('ap'),
    map_at_100: mean('ap100'),
    ms_p50: median,
    source_paper_first: sourceFirst,
  };
}

const plain = {
  titleWeight: 1,
  bodyWeight: 1,
  feedbackDocs: 0,
  feedbackTerms: 0,
  feedbackSharpness: 0,
  feedbackWeight: 0,
  feedbackDepth: 0,
};
let tuned = DEFAULT_RANKING;
const grid = [];
if (!values['no-tune']) {
  // Odd (dev) queries only; the objective is nDCG@10. Sharpness 0 gives the top documents equal
  // votes; depth 100 stands for a second retrieval over the whole index (on Cranfield they rank
  // alike), 30 for what a large index can afford per query.
  for (const titleWeight of [3, 5])
    for (const feedbackDocs of [3, 5, 10])
      for (const feedbackTerms of [20, 40])
        for (const feedbackSharpness of [0, 0.5, 1])
          for (const feedbackWeight of [1, 2, 3])
            for (const feedbackDepth of [30, 100]) {
              const ranking = {
                titleWeight,
                bodyWeight: 1,
                feedbackDocs,
                feedbackTerms,
                feedbackSharpness,
                feedbackWeight,
                feedbackDepth,
              };
              grid.push({ ranking, dev: await measure('dev', ranking) });
            }
  grid.sort((a, b) => b.dev.ndcg_at_10 - a.dev.ndcg_at_10);
  tuned = grid[0].ranking;
}

// The reordering by meaning over the default lexical ranking, on odd (dev) queries only: how many
// first results it reorders, reciprocal rank fusion's constant and the weight of the rank by
// meaning, and how many of the best documents' embeddings join the query's, at what weight.
const meaningGrid = [];
for (const depth of [10, 20, 30])
  for (const fusionK of [10, 30, 60])
    for (const weight of [0.5, 1, 1.5, 2])
      for (const [feedbackDocs, feedbackWeight] of [
        [0, 0],
        [3, 1],
        [5, 1],
        [5, 2],
        [10, 2],
      ]) {
        const meaning = { ...DEFAULT_MEANING, depth, fusionK, weight, feedbackDocs, feedbackWeight };
        meaningGrid.push({ meaning, dev: await measure('dev', DEFAULT_RANKING, meaning, true) });
      }
meaningGrid.sort((a, b) => b.dev.ndcg_at_10 - a.dev.ndcg_at_10);
const tunedMeaning = meaningGrid[0].meaning;

const rows = [];
for (const row of [
  { variant: 'plain BM25 (1/1)', ranking: plain },
  { variant: 'lexical (DEFAULT_RANKING)', ranking: DEFAULT_RANKING },
  { variant: 'best lexical of the grid on dev', ranking: tuned },
  { variant: 'lexical + meaning (DEFAULT_MEANING)', ranking: DEFAULT_RANKING, meaning: DEFAULT_MEANING },
  { variant: 'lexical + meaning, best of the grid on dev', ranking: DEFAULT_RANKING, meaning: tunedMeaning },
])
  rows.push({
    ...row,
    dev: await measure('dev', row.ranking, row.meaning),
    test: await measure('test', row.ranking, row.meaning),
  });
index.close();
rmSync(dir, { recursive: true, force: true });

console.table(
  rows.map((r) => ({
    variant: r.variant,
    'dev nDCG@10': r.dev.ndcg_at_10,
    'dev MAP': r.dev.map,
    'test nDCG@10': r.test.ndcg_at_10,
    'test MAP': r.test.map,
    'test MAP@100': r.test.map_at_100,
    'ms per query (p50)': r.test.ms_p50,
    'source paper first (odd + even)': r.dev.source_paper_first + r.test.source_paper_first,
  })),
);
console.log('best lexical of the grid on dev:', JSON.stringify(tuned));
console.log('best reordering by meaning of the grid on dev:', JSON.stringify(tunedMeaning));
saveReport('search-quality', {
  date: new Date().toISOString(),
  machine: machine(),
  collection: { documents: docs.length, queries: queries.length, judged_queries: qrels.size },
  metrics:
    'nDCG@10 with gain 5 - grade; MAP over the top 1000 and MAP@100; dev = odd queries, test = even queries',
  embedding_ms_per_document: +embedMsPerDocument.toFixed(1),
  reference_plain_bm25_readme: {
    test: { map: 0.294, ndcg_at_10: 0.343 },
    dev: { map: 0.316, ndcg_at_10: 0.357 },
  },
  results: rows,
  tuning_top5_dev: grid.slice(0, 5),
  meaning_tuning_top5_dev: meaningGrid.slice(0, 5),
});
