// Speed of the local search engine at scale: a generated corpus indexed through the CLI
// (`switchyard search index`, JSONL), then /serp/web over HTTP: latency one request at a time
// (p50, p99) and throughput with several clients; the same queries on the engine in-process give
// the HTTP share as a ratio. Corpus: words of a 50 000-word vocabulary drawn by Zipf's law
// (s = 1), titles of 4–8 and bodies of 40–120 words, 20 000 sites, a date on a third of the
// documents. Queries: two words drawn uniformly from vocabulary ranks 100–10 000 (the 100 most
// frequent words are what stop-word lists hold), the same list for every measurement.
// While the clients search, a probe asks for /healthz every few milliseconds: how long other
// requests wait while the server searches. `--trees A,B` measures the servers of several built
// trees (each its own dist/) on the same index and queries, taking turns, for before and after;
// `--semantic on,off` measures each tree's server with ranking by meaning on and off, in turns.
// `switchyard search index` embeds the documents when the corpus is at most `search.embed_up_to`
// (20 000 by default); a larger one is indexed and searched without embeddings.
// Usage: npm run build && node bench/search-speed.mjs [--docs N] [--queries N]
//   [--clients 4] [--trees .,/tmp/before] [--rounds 1] [--semantic on,off] [--report search-speed]
import { spawn, execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { SearchIndex } from '../dist/engines/searchindex/index.js';
import { freePort, machine, saveReport } from './common.mjs';

const { values } = parseArgs({
  options: {
    docs: { type: 'string', default: '1000000' },
    queries: { type: 'string', default: '2000' },
    clients: { type: 'string', default: '4' },
    trees: { type: 'string', default: '.' },
    rounds: { type: 'string', default: '1' },
    semantic: { type: 'string', default: 'on,off' },
    report: { type: 'string', default: 'search-speed' },
  },
});
const SEMANTIC = values.semantic.split(',');
const TREES = values.trees.split(',');
const ROUNDS = Number(values.rounds);
const DOCS = Number(values.docs);
const QUERIES = Number(values.queries);
const CLIENTS = Number(values.clients);
const VOCABULARY = 50_000;

/** A small deterministic generator (mulberry32), so every run indexes the same corpus. */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rng = random(42);
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'sa',
  'to',
  'vi',
  'ze',
  'po',
  'qu',
  'fa',
  'de',
  'gi',
  'hu',
  'jo',
];
const words = [];
const seen = new Set();
while (words.length < VOCABULARY) {
  const n = 2 + Math.floor(rng() * 3);
  let word = '';
  for (let i = 0; i < n; i += 1) word += SYLLABLES[Math.floor(rng() * SYLLABLES.length)];
  word += String.fromCharCode(97 + Math.floor(rng() * 26));
  if (!seen.has(word)) {
    seen.add(word);
    words.push(word);
  }
}
// Zipf's law: the word of rank r drawn with probability ∝ 1 / r.
const cdf = new Float64Array(VOCABULARY);
let total = 0;
for (let r = 0; r < VOCABULARY; r += 1) cdf[r] = total += 1 / (r + 1);
function zipfWord() {
  const x = rng() * total;
  let lo = 0;
  let hi = VOCABULARY - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cdf[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return words[lo];
}
const phrase = (min, max) =>
  Array.from({ length: min + Math.floor(rng() * (max - min + 1)) }, zipfWord).join(' ');

const dir = mkdtempSync(join(tmpdir(), 'search-speed-'));
const corpus = join(dir, 'corpus.jsonl');
const indexPath = join(dir, 'index.db');
let server;
try {
  const out = createWriteStream(corpus);
  for (let i = 0; i < DOCS; i += 1) {
    const record = {
      type: 'organic',
      link: `https://site${Math.floor(rng() * 20_000)}.example/page/${i}`,
      title: phrase(4, 8),
      text: phrase(40, 120),
    };
    if (rng() < 1 / 3)
      record.date = new Date(Date.UTC(2015, 0, 1) + Math.floor(rng() * 3650) * 86_400_000)
        .toISOString()
        .slice(0, 10);
    if (!out.write(`${JSON.stringify(record)}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  const corpusBytes = statSync(corpus).size;

  const started = process.hrtime.bigint();
  const indexed = execFileSync(
    process.execPath,
    ['dist/cli/main.js', 'search', 'index', corpus, '--index', indexPath],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, SWITCHYARD_CONFIG: '' },
      encoding: 'utf8',
    },
  );
  process.stdout.write(indexed);
  const indexSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const [, embedded = '0', embedSeconds = '0'] =
    /embedded (\d+) documents .* in ([\d.]+) s/.exec(indexed) ?? [];
  const indexBytes = [indexPath, `${indexPath}-wal`]
    .filter(existsSync)
    .reduce((sum, f) => sum + statSync(f).size, 0);

  const queries = Array.from({ length: QUERIES }, () => {
    const pick = () => words[100 + Math.floor(rng() * 9_900)];
    return `${pick()} ${pick()}`;
  });

  const percentile = (sorted, p) =>
    sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
  const servers = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    // Taking turns, reversed every other round, so that the machine's drift falls on each alike.
    const order = round % 2 === 0 ? TREES : [...TREES].reverse();
    for (const tree of order)
      for (const semantic of round % 2 === 0 ? SEMANTIC : [...SEMANTIC].reverse())
        servers.push({ tree, semantic, round: round + 1, ...(await measureServer(tree, semantic)) });
  }
  console.table(servers);

  /** One tree's server on the index: one query at a time, then CLIENTS at once beside the probe. */
  async function measureServer(tree, semantic) {
    const port = await freePort();
    server = spawn(
      process.execPath,
      [join(resolve(tree), 'bench/search-server.mjs'), String(port), resolve(indexPath), semantic],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        cwd: resolve(tree),
      },
    );
    const [line] = await once(createInterface({ input: server.stdout }), 'line');
    const { url, token } = JSON.parse(line);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const ask = async (query) => {
      const response = await fetch(`${url}/serp/web`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ query }),
      });
      const body = await response.json();
      if (response.status !== 200) throw new Error(`${response.status} ${JSON.stringify(body)}`);
      return body.organic.length;
    };
    for (const query of queries.slice(0, 50)) await ask(query); // warm the page cache and the JIT

    const latencies = [];
    let found = 0;
    for (const query of queries) {
      const t = process.hrtime.bigint();
      found += (await ask(query)) > 0 ? 1 : 0;
      latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    latencies.sort((a, b) => a - b);

    let next = 0;
    let searching = true;
    const probes = [];
    const probe = (async () => {
      while (searching) {
        const t = process.hrtime.bigint();
        const response = await fetch(`${url}/healthz`);
        await response.arrayBuffer();
        probes.push(Number(process.hrtime.bigint() - t) / 1e6);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const t0 = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < queries.length) await ask(queries[next++]);
      }),
    );
    const qps = queries.length / (Number(process.hrtime.bigint() - t0) / 1e9);
    searching = false;
    await probe;
    probes.sort((a, b) => a - b);
    server.kill();
    await once(server, 'exit');
    server = undefined;
    return {
      queries_with_results: found,
      http_p50_ms: +percentile(latencies, 50).toFixed(2),
      http_p99_ms: +percentile(latencies, 99).toFixed(2),
      http_qps: Math.round(qps),
      health_p50_ms: +percentile(probes, 50).toFixed(2),
      health_p99_ms: +percentile(probes, 99).toFixed(2),
    };
  }

  // The engine alone, in this process, on the same queries: what HTTP and the service add.
  const index = new SearchIndex(indexPath);
  const engine = [];
  for (const query of queries) {
    const t = process.hrtime.bigint();
    index.search({ query, language: 'en', country: 'US', kinds: ['page'] });
    engine.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  index.close();
  engine.sort((a, b) => a - b);

  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
  const byTree = TREES.flatMap((tree) => SEMANTIC.map((semantic) => ({ tree, semantic }))).map(
    ({ tree, semantic }) => {
      const runs = servers.filter((s) => s.tree === tree && s.semantic === semantic);
      const of = (key) => median(runs.map((r) => r[key]));
      return {
        tree,
        semantic,
        queries_with_results: of('queries_with_results'),
        http_p50_ms: of('http_p50_ms'),
        http_p99_ms: of('http_p99_ms'),
        http_qps: of('http_qps'),
        health_p50_ms: of('health_p50_ms'),
        health_p99_ms: of('health_p99_ms'),
      };
    },
  );
  const result = {
    documents: DOCS,
    corpus_mib: +(corpusBytes / 2 ** 20).toFixed(1),
    index_seconds: +indexSeconds.toFixed(1),
    docs_per_second: Math.round(DOCS / indexSeconds),
    index_mib: +(indexBytes / 2 ** 20).toFixed(1),
    embedded: Number(embedded),
    embed_seconds: Number(embedSeconds),
    queries: QUERIES,
    ...byTree[0],
    clients: CLIENTS,
    engine_p50_ms: +percentile(engine, 50).toFixed(2),
    engine_p99_ms: +percentile(engine, 99).toFixed(2),
  };
  result.http_over_engine_p50 = +(result.http_p50_ms / result.engine_p50_ms).toFixed(2);
  console.table([result]);
  if (byTree.length > 1) console.table(byTree);
  if (TREES.length > 1) {
    const [first, ...others] = byTree;
    for (const other of others)
      console.log(
        `${other.tree} / ${first.tree}: ${(other.http_qps / first.http_qps).toFixed(2)}× queries/s with ${CLIENTS} clients, ` +
          `/healthz p99 while searching ${first.health_p99_ms} → ${other.health_p99_ms} ms`,
      );
  }
  saveReport(values.report, {
    date: new Date().toISOString(),
    machine: machine(),
    corpus: 'Zipf (s = 1) over 50 000 words; titles 4–8, bodies 40–120 words; 20 000 sites',
    queries: 'two words, uniform over vocabulary ranks 100–10 000; type search with its defaults',
    targets: { docs_per_second: 8000, http_p50_ms: 20, http_p99_ms: 100 },
    result,
    ...(byTree.length > 1 ? { servers: byTree, runs: servers } : {}),
  });
} finally {
  server?.kill();
  rmSync(dir, { recursive: true, force: true });
}
