// One server for bench/overhead.mjs: `bare` is a plain Fastify JSON route; `switchyard` is the
// real application with a real token, validation, credits and usage records. Prints its URL (and
// the token) as one JSON line, then serves until killed.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';

const kind = process.argv[2];

if (kind === 'bare') {
  const app = Fastify({ logger: false });
  app.post('/bare', async (request) => ({ items: [], count: 0, echo: request.body?.action ?? null }));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  console.log(JSON.stringify({ url: `${url}/bare` }));
} else if (kind === 'switchyard') {
  const { loadConfig } = await import('../dist/config/index.js');
  const { openServices } = await import('../dist/services.js');
  const { buildApp } = await import('../dist/http/app.js');
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-bench-'));
  const config = loadConfig({ env: {}, overrides: { port: 0, data_dir: dataDir, 'log.level': 'warn' } });
  const services = await openServices(config);
  const { secret } = await services.tokens.create({ name: 'bench', credits: 1_000_000_000 });
  const app = await buildApp(services);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  console.log(JSON.stringify({ url: `${url}/tune/tasks`, token: secret }));
} else {
  console.error('usage: overhead-server.mjs bare|switchyard');
  process.exit(2);
}
