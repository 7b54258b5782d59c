// Gateway overhead: requests per second and latency of an authenticated, validated request to a
// trivial operation (task lookup by id: token check, schema and rules, a credit reservation, one
// indexed query, a usage record), against a bare Fastify JSON route, in the same run.
// Throughput comes from autocannon under load; latency from sequential requests timed with
// microsecond resolution (autocannon's latency histogram counts whole milliseconds).
// Usage: node bench/overhead.mjs [--duration 10] [--connections 32] [--samples 3000]
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { machine, saveReport } from './common.mjs';
import { request } from 'undici';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    samples: { type: 'string', default: '3000' },
  },
});
const samples = Number(values.samples);
const duration = Number(values.duration);
const connections = Number(values.connections);
const body = JSON.stringify({ action: 'retrieve_batch', ids: ['00000000-0000-4000-8000-000000000000'] });

async function start(kind) {
  const child = spawn(process.execPath, [new URL('./overhead-server.mjs', import.meta.url).pathname, kind], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
  return { child, ...JSON.parse(line) };
}

async function measure(kind) {
  const server = await start(kind);
  const headers = { 'content-type': 'application/json' };
  if (server.token) headers.authorization = `Bearer ${server.token}`;
  const options = { url: server.url, method: 'POST', headers, body, connections };
  await autocannon({ ...options, duration: 2 }); // warm-up: JIT, caches, SQLite pages
  const result = await autocannon({ ...options, duration });
  const times = [];
  for (let i = 0; i < samples; i += 1) {
    const start = process.hrtime.bigint();
    const answer = await request(server.url, { method: 'POST', headers, body });
    await answer.body.dump();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  const at = (q) => Number(times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(3));
  server.child.kill();
  const failures = result.non2xx + result.errors + result.timeouts;
  return {
    kind,
    requests_per_second: Math.round(result.requests.average),
    p50_ms: at(0.5),
    p99_ms: at(0.99),
    total: result.requests.total,
    failures,
  };
}

const bare = await measure('bare');
const gateway = await measure('switchyard');
const report = {
  benchmark: 'overhead',
  date: new Date().toISOString(),
  machine: machine(),
  settings: { duration_s: duration, connections, latency_samples: samples },
  results: [bare, gateway],
  ratio: {
    throughput: Number((gateway.requests_per_second / bare.requests_per_second).toFixed(3)),
    p50: Number((gateway.p50_ms / bare.p50_ms).toFixed(2)),
    p99: Number((gateway.p99_ms / bare.p99_ms).toFixed(2)),
  },
};

console.log(
  `machine: ${report.machine.cpus} × ${report.machine.cpu}, ${report.machine.memory_gib} GiB, node ${report.machine.node}`,
);
console.log(`${duration} s per server, ${connections} connections\n`);
console.log('server        req/s   p50 ms   p99 ms   failures   (latency: one request at a time)');
for (const r of report.results) {
  const cells = [r.requests_per_second, r.p50_ms, r.p99_ms, r.failures].map(String);
  const widths = [7, 9, 9, 11];
  console.log(r.kind.padEnd(12) + cells.map((c, i) => c.padStart(widths[i])).join(''));
}
console.log(
  `\nswitchyard / bare: throughput ×${report.ratio.throughput}, p50 ×${report.ratio.p50}, p99 ×${report.ratio.p99}`,
);
saveReport('overhead', report);
