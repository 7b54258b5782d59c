// The server for bench/tasks.mjs: the real application from dist/ with an instant engine on
// the tune family (a bench-only capability: it answers at once, so the figure is the cost of the
// task machinery itself). Prints {url, token} as one JSON line, then serves until killed.
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../dist/config/index.js';
import { openServices, startWorkers } from '../dist/services.js';
import { buildApp } from '../dist/http/app.js';
import { Providers } from '../dist/providers/index.js';

const instant = {
  async run(job) {
    return [
      {
        id: randomUUID(),
        model: String(job.input.model),
        title: 'instant',
        created_at: new Date().toISOString(),
      },
    ];
  },
};

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
const services = await openServices(config, { providers: new Providers({ tune: instant }) });
const { secret } = await services.tokens.create({ name: 'bench', credits: 1_000_000_000 });
const app = await buildApp(services);
await startWorkers(services);
await app.listen({ port, host: '127.0.0.1' });
console.log(JSON.stringify({ url: `http://127.0.0.1:${port}`, token: secret }));
