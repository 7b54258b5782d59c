// The server for bench/tasks.mjs: the real application from dist/ with the instant engine
// (bench/instant.mjs). Prints {url, token} as one JSON line, then serves until killed.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../dist/config/index.js';
import { openServices, startWorkers } from '../dist/services.js';
import { buildApp } from '../dist/http/app.js';
import { instantProviders } from './instant.mjs';

const port = Number(process.argv[2]);
const config = loadConfig({
  env: {},
  overrides: {
    port,
    data_dir: mkdtempSync(join(tmpdir(), 'switchyard-bench-tasks-')),
    'log.level': 'warn',
    'outbound.allow_cidrs': ['127.0.0.1/32'],
    'tasks.concurrency': 64,
  },
});
const services = await openServices(config, { providers: instantProviders() });
const { secret } = await services.tokens.create({ name: 'bench', credits: 1_000_000_000 });
const app = await buildApp(services);
await startWorkers(services);
await app.listen({ port, host: '127.0.0.1' });
console.log(JSON.stringify({ url: `http://127.0.0.1:${port}`, token: secret }));
// An exit rather than death by signal, so that a CPU profile (BENCH_CPU_PROF) is written.
process.once('SIGTERM', () => process.exit(0));
