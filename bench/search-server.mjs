// The server for bench/search-speed.mjs: the real application from dist/ serving /serp/web from
// the index file given, ranking by meaning unless the third argument is `off`. Prints
// {url, token} as one JSON line, then serves until killed.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../dist/config/index.js';
import { openServices, startWorkers } from '../dist/services.js';
import { buildApp } from '../dist/http/app.js';

const [port, indexPath, semantic] = [Number(process.argv[2]), process.argv[3], process.argv[4]];
const config = loadConfig({
  env: {},
  overrides: {
    port,
    data_dir: mkdtempSync(join(tmpdir(), 'switchyard-bench-search-')),
    'log.level': 'warn',
    'search.index_path': indexPath,
    ...(semantic === 'off' ? { 'search.semantic_reranking': false } : {}),
  },
});
const services = await openServices(config);
// Created without limits (as tokens made in code are): the benchmark measures search, not the limiter.
const { secret } = await services.tokens.create({ name: 'bench' });
const app = await buildApp(services);
await startWorkers(services);
await app.listen({ port, host: '127.0.0.1' });
console.log(JSON.stringify({ url: `http://127.0.0.1:${port}`, token: secret }));
