// The admin API's reads over a million request rows, embedded (SQLite): usage grouped by day and
// token, and the request log's first page, through the real server over HTTP. The rows span 30
// days up to now over 20 tokens and 8 operations; the rollup (watchers/retention.ts, every five
// minutes on a server) is timed once, and grouped usage is measured after it (the shipped path:
// daily rows plus the last minute of raw rows) and before it (raw rows only, for comparison).
// Usage: make setup && node bench/admin.mjs [--rows 1000000] [--runs 20]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { machine, freePort, saveReport } from './common.mjs';
import { loadConfig } from '../dist/config/index.js';
import { openServices, closeServices } from '../dist/services.js';
import { buildApp } from '../dist/http/app.js';
import { sqliteHandleOf } from '../dist/store/database.js';
import { refreshDaysOf, rollUp } from '../dist/watchers/retention.js';

const { values } = parseArgs({
  options: { rows: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '20' } },
});
const ROWS = Number(values.rows);
const RUNS = Number(values.runs);
const DAY = 86_400_000;
const DAYS = 30;
const OPERATIONS = [
  '/serp/web',
  '/chatmodel/chat/completions',
  '/moon/chat/completions',
  '/tune/audios',
  '/clip/videos',
  '/qrart/tasks',
  '/identity/idcard/ocr',
  '/tune/tasks',
];

const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-bench-admin-'));
const port = await freePort();
const config = loadConfig({ env: {}, overrides: { port, data_dir: dataDir, 'log.level': 'silent' } });
const services = await openServices(config);
const app = await buildApp(services);
await app.listen({ port, host: '127.0.0.1' });
const base = `http://127.0.0.1:${port}`;

const { secret: admin } = await services.tokens.create({ name: 'bench-admin', role: 'admin' });
const tokens = [];
for (let i = 0; i < 20; i++)
  tokens.push((await services.tokens.create({ name: `client-${i}`, credits: 1_000_000 })).token.id);

// A million rows as the server writes them, in one transaction of prepared inserts.
const sqlite = sqliteHandleOf(services.db);
const insert = sqlite.prepare(
  `insert into usage (id, token_id, operation, model, action, credits, status, latency_ms, trace_id, created_at, error_code, task_id)
   values (?, ?, ?, ?, null, ?, ?, ?, ?, ?, ?, null)`,
);
const now = Date.now();
const started = performance.now();
sqlite.transaction(() => {
  for (let i = 0; i < ROWS; i++) {
    // Evenly over 30 days, oldest first, as ids that sort by time.
    const at = now - DAYS * DAY + Math.floor((i / ROWS) * DAYS * DAY);
    const failed = i % 23 === 0;
    insert.run(
      `${at.toString(36).padStart(9, '0')}${(i % 1_679_616).toString(36).padStart(4, '0')}bench`,
      tokens[i % tokens.length],
      OPERATIONS[i % OPERATIONS.length],
      i % 3 === 0 ? 'chatmodel-4o' : null,
      failed ? 0 : 1 + (i % 5),
      failed ? 502 : 200,
      5 + ((i * 7919) % 1000) / 3,
      `trace-${i}`,
      at,
      failed ? 'upstream_error' : null,
    );
  }
})();
const insertSeconds = (performance.now() - started) / 1000;

async function timed(path, runs = RUNS) {
  const times = [];
  let body;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${admin}` } });
    body = await response.json();
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const at = (q) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))] * 10) / 10;
  return { p50_ms: at(0.5), p95_ms: at(0.95), rows: body.rows?.length ?? body.hours?.length };
}

const from = new Date(now - DAYS * DAY).toISOString();
const grouped = `/admin/api/v1/usage?group_by=day,token&from=${from}`;
const cases = {};
// Seconds a run: three are enough to show why the rollup exists.
cases['usage by day and token, raw rows only (before the rollup)'] = await timed(grouped, 3);
// The longest the rollup kept the event loop (and so every request to this server) waiting.
// A 10 ms timer that is late by X ms was kept waiting X ms.
let lastTick = performance.now();
let longestStallMs = 0;
const ticker = setInterval(() => {
  const now = performance.now();
  longestStallMs = Math.max(longestStallMs, Math.round(now - lastTick - 10));
  lastTick = now;
}, 10);
const rollupStarted = performance.now();
const days = await rollUp(services.db, refreshDaysOf(config.tasks.expires_seconds));
const rollupSeconds = (performance.now() - rollupStarted) / 1000;
// One more tick, so that a stall that lasted to the rollup's end is counted.
await new Promise((resolve) => setTimeout(resolve, 30));
clearInterval(ticker);
cases['usage by day and token (after the rollup)'] = await timed(grouped);
cases['usage by token and operation, 30 days'] = await timed(
  `/admin/api/v1/usage?group_by=token,operation&from=${from}`,
);
cases['request log, first page (50)'] = await timed('/admin/api/v1/requests');
cases['request log, first page of one token'] = await timed(`/admin/api/v1/requests?token=client-7`);
cases['request log, first page of 5xx'] = await timed('/admin/api/v1/requests?status=5xx');
cases['overview (24 h)'] = await timed('/admin/api/v1/overview');

await app.close();
await closeServices(services);
rmSync(dataDir, { recursive: true, force: true });

const rows = Object.entries(cases).map(([name, r]) => ({ case: name, ...r }));
console.log(
  `${ROWS.toLocaleString('en')} request rows over ${DAYS} days, inserted in ${insertSeconds.toFixed(1)} s; rollup of ${days} days: ${rollupSeconds.toFixed(1)} s, the event loop held at most ${longestStallMs} ms`,
);
console.table(rows);
saveReport('admin', {
  machine: machine(),
  rows: ROWS,
  days: DAYS,
  runs: RUNS,
  insert_seconds: Math.round(insertSeconds * 10) / 10,
  rollup: { days, seconds: Math.round(rollupSeconds * 10) / 10, longest_stall_ms: longestStallMs },
  cases: rows,
});
