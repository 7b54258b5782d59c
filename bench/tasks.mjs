// Task throughput: tasks per second from submission to terminal state (each request waits for
// its task), with an instant engine, at 1, 8 and 64 concurrent clients; then callbacks delivered
// per second to a receiver on loopback (a first batch, then the measured one); then the server's
// memory.
// Usage: node bench/tasks.mjs [--duration 10] [--callbacks 5000]
// BENCH_CPU_PROF=DIR writes the server's CPU profile into DIR.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { cpuSeconds, freePort, launcherFlags, machine, saveReport } from './common.mjs';

const { values } = parseArgs({
  options: { duration: { type: 'string', default: '10' }, callbacks: { type: 'string', default: '5000' } },
});
const duration = Number(values.duration);
const callbackCount = Number(values.callbacks);

const child = spawn(
  process.execPath,
  [
    // As the launcher starts `serve`.
    ...launcherFlags(),
    ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : []),
    new URL('./tasks-server.mjs', import.meta.url).pathname,
    String(await freePort()),
  ],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const { url, token } = JSON.parse(
  await new Promise((r) => createInterface({ input: child.stdout }).once('line', r)),
);
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
const waitBody = JSON.stringify({ action: 'generate', prompt: 'an instant song' });

/**
 * The server's CPU time per item since `before` (autocannon, the receiver and the server share
 * the cores: throughput moves with what else runs, CPU per item much less).
 */
function perItem(before, items) {
  const after = cpuSeconds(child.pid);
  return before === null || after === null || items === 0
    ? null
    : Math.round(((after - before) * 1e6) / items);
}

const rows = [];
await autocannon({
  url: `${url}/tune/audios`,
  method: 'POST',
  headers,
  body: waitBody,
  connections: 8,
  duration: 2,
});
for (const connections of [1, 8, 64]) {
  const cpuBefore = cpuSeconds(child.pid);
  const result = await autocannon({
    url: `${url}/tune/audios`,
    method: 'POST',
    headers,
    body: waitBody,
    connections,
    duration,
  });
  rows.push({
    clients: connections,
    tasks_per_second: Math.round(result.requests.average),
    completed: result.requests.total,
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    server_cpu_us_per_task: perItem(cpuBefore, result.requests.total),
  });
}

// Callbacks: submit with callback_url, measure until the last one arrives. A first batch runs the
// delivery path (the outbound guard, the HTTP client, signing) for the first time in this process,
// as the warm-up before the rows above does for tasks; it is reported too, and the target is read
// on the batch after it.
let received = 0;
let lastAt = 0;
let expected = 0;
let allArrived = () => {};
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received += 1;
    lastAt = performance.now();
    res.writeHead(200).end();
    if (received === expected) allArrived();
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const callbackUrl = `http://127.0.0.1:${receiver.address().port}/hook`;
const callbackBody = JSON.stringify({
  action: 'generate',
  prompt: 'an instant song',
  callback_url: callbackUrl,
});

/** Submits `count` tasks with a callback at 64 clients and waits (up to 2 minutes) for their callbacks. */
async function callbackBatch(count) {
  received = 0;
  expected = count;
  const arrived = new Promise((r) => (allArrived = r));
  const firstAt = performance.now();
  const cpuBefore = cpuSeconds(child.pid);
  await autocannon({
    url: `${url}/tune/audios`,
    method: 'POST',
    headers,
    body: callbackBody,
    connections: 64,
    amount: count,
  });
  await Promise.race([arrived, new Promise((r) => setTimeout(r, 120_000))]);
  return {
    submitted: count,
    delivered: received,
    per_second: Math.round(received / ((lastAt - firstAt) / 1000)),
    // The whole life of each: submission, run, terminal move, delivery.
    server_cpu_us_per_callback: perItem(cpuBefore, received),
  };
}
const firstCallbacks = await callbackBatch(callbackCount);
const callbacks = await callbackBatch(callbackCount);
receiver.close();

const metrics = await (await fetch(`${url}/metrics`)).text();
const rss = Number(/switchyard_process_resident_memory_bytes (\d+)/.exec(metrics)?.[1] ?? 0);
child.kill();

const report = {
  benchmark: 'tasks',
  date: new Date().toISOString(),
  machine: machine(),
  settings: { duration_s: duration, engine: 'instant', store: 'embedded (SQLite)' },
  waiting: rows,
  first_callbacks: firstCallbacks,
  callbacks,
  server_rss_mib: Math.round(rss / 2 ** 20),
};
console.log(
  `machine: ${report.machine.cpus} × ${report.machine.cpu}, node ${report.machine.node}; embedded store`,
);
console.log(
  'clients   tasks/s   p50 ms   p99 ms   failures   cpu µs/task   (submission to terminal, waiting)',
);
for (const r of rows) {
  const cells = [r.clients, r.tasks_per_second, r.p50_ms, r.p99_ms, r.failures, r.server_cpu_us_per_task].map(
    String,
  );
  const widths = [7, 10, 9, 9, 11, 14];
  console.log(cells.map((c, i) => c.padStart(widths[i])).join(''));
}
for (const [label, batch] of [
  ['callbacks, first batch', firstCallbacks],
  ['callbacks', callbacks],
]) {
  console.log(
    `${label}: ${batch.delivered}/${batch.submitted} delivered, ${batch.per_second}/s, ` +
      `server cpu ${batch.server_cpu_us_per_callback} µs each`,
  );
}
console.log(`server memory at the end: ${report.server_rss_mib} MiB`);
saveReport('tasks', report);
