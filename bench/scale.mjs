// Scale-out: the distributed mode (PostgreSQL + Redis) with separate processes.
// 1. Tasks per second from submission to terminal (64 clients waiting, instant engine) through
//    one API node, with 1 and then 2 worker processes.
// 2. API requests per second (an authenticated task lookup by id) with 1 and then 2 API nodes.
// Each figure is compared within the run (ratio). The machine's core count bounds what a second
// process can add: on 2 cores the load generator, PostgreSQL and Redis share them too.
// Needs PostgreSQL and Redis: SWITCHYARD_TEST_POSTGRES (admin URL) and SWITCHYARD_TEST_REDIS.
// Usage: node bench/scale.mjs [--duration 10]
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { freePort, machine, saveReport } from './common.mjs';
import pg from 'pg';
import { Redis } from 'ioredis';
import { openDatabase } from '../dist/store/database.js';
import { Tokens } from '../dist/accounts/tokens.js';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '10' } } });
const duration = Number(values.duration);
const adminUrl = process.env.SWITCHYARD_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.SWITCHYARD_TEST_REDIS ?? 'redis://127.0.0.1:6379';

const name = `sy_bench_${randomBytes(5).toString('hex')}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const dbUrl = new URL(adminUrl);
dbUrl.pathname = `/${name}`;
const dir = mkdtempSync(join(tmpdir(), 'switchyard-scale-'));

const children = [];
async function start(role, index) {
  const port = role === 'api' ? await freePort() : 0;
  const file = join(dir, `${role}${index}.yaml`);
  writeFileSync(
    file,
    [
      `port: ${port}`,
      `data_dir: ${join(dir, `${role}${index}`)}`,
      'log: { level: warn }',
      `database: { url: '${dbUrl.href}' }`,
      `redis: { url: '${redisUrl}', prefix: '${name}' }`,
      'workers: { embedded: false }',
      'tasks: { concurrency: 64 }',
    ].join('\n'),
  );
  const child = spawn(process.execPath, [new URL('./scale-node.mjs', import.meta.url).pathname, file, role], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((r) => createInterface({ input: child.stdout }).once('line', r));
  children.push(child);
  return { child, url: `http://127.0.0.1:${port}` };
}

const db = await openDatabase(dbUrl.href);
const { secret } = await new Tokens(db).create({ name: 'bench', credits: null });
const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
const generate = JSON.stringify({ action: 'generate', prompt: 'an instant song' });
const lookup = JSON.stringify({ action: 'retrieve_batch', ids: ['00000000-0000-4000-8000-000000000000'] });

async function load(urls, path, body, connections) {
  const results = await Promise.all(
    urls.map((url) =>
      autocannon({
        url: `${url}${path}`,
        method: 'POST',
        headers,
        body,
        connections: connections / urls.length,
        duration,
      }),
    ),
  );
  return {
    per_second: Math.round(results.reduce((sum, r) => sum + r.requests.average, 0)),
    failures: results.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0),
  };
}

const api0 = await start('api', 0);
const oneNode = await load([api0.url], '/tune/tasks', lookup, 64);
const api1 = await start('api', 1);
const twoNodes = await load([api0.url, api1.url], '/tune/tasks', lookup, 64);
api1.child.kill();

await start('worker', 0);
await autocannon({
  url: `${api0.url}/tune/audios`,
  method: 'POST',
  headers,
  body: generate,
  connections: 16,
  duration: 2,
});
const oneWorker = await load([api0.url], '/tune/audios', generate, 64);
await start('worker', 1);
const twoWorkers = await load([api0.url], '/tune/audios', generate, 64);

for (const child of children) child.kill();
await db.destroy();
await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
await admin.end();
const redis = new Redis(redisUrl);
let cursor = '0';
do {
  const [next, keys] = await redis.scan(cursor, 'MATCH', `${name}:*`, 'COUNT', 1000);
  if (keys.length > 0) await redis.del(...keys);
  cursor = next;
} while (cursor !== '0');
await redis.quit();

const ratio = (a, b) => Number((b.per_second / a.per_second).toFixed(2));
const report = {
  benchmark: 'scale',
  date: new Date().toISOString(),
  machine: machine(),
  settings: {
    duration_s: duration,
    connections: 64,
    store: 'PostgreSQL + Redis (BullMQ)',
    engine: 'instant',
  },
  tasks: { one_worker: oneWorker, two_workers: twoWorkers, ratio: ratio(oneWorker, twoWorkers) },
  api: { one_node: oneNode, two_nodes: twoNodes, ratio: ratio(oneNode, twoNodes) },
};
console.log(
  `machine: ${report.machine.cpus} × ${report.machine.cpu}, node ${report.machine.node}; PostgreSQL + Redis`,
);
console.log('                                   1 process   2 processes   ratio');
const row = (label, a, b, r) =>
  console.log(
    `${label.padEnd(34)}${String(a.per_second).padStart(10)}${String(b.per_second).padStart(14)}${String(r).padStart(8)}`,
  );
row('tasks/s (workers, 1 API node)', oneWorker, twoWorkers, report.tasks.ratio);
row('API requests/s (API nodes)', oneNode, twoNodes, report.api.ratio);
const failures = [oneWorker, twoWorkers, oneNode, twoNodes].reduce((sum, r) => sum + r.failures, 0);
console.log(`failures: ${failures}`);
saveReport('scale', report);
