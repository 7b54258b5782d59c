// Server memory: the resident set (VmRSS) of `switchyard serve` from dist/ on its defaults with a
// credited token and one chat channel to a loopback upstream (bench/chat-upstream.mjs): idle
// after start, the most it reached under a mixed load (chat relayed at 16 connections, searches,
// QR art tasks), and idle again 10 s after the load stopped.
// Usage: node bench/memory.mjs [--minutes 10] [--settle-seconds 10]; a fraction of a minute
// (--minutes 0.5) makes a quick run to iterate with, the reported figures come from the default.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { request } from 'undici';
import { chatGatewaySetup, serveCommand } from './chat-gateway.mjs';
import { freePort, machine, saveReport } from './common.mjs';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    'settle-seconds': { type: 'string', default: '10' },
  },
});
const minutes = Number(values.minutes);
const settleSeconds = Number(values['settle-seconds']);
const TARGET_MIB = 150;
const MODEL = 'chatmodel-4o';
const cli = new URL('../dist/cli/main.js', import.meta.url).pathname;
if (!existsSync(cli)) throw new Error('dist/ is missing: run `make setup`');
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** The resident set of process `pid`, in MiB. */
function rssMiB(pid) {
  const kib = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return Math.round(kib / 1024);
}

const upstream = spawn(process.execPath, [new URL('./chat-upstream.mjs', import.meta.url).pathname], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const { base_url: upstreamUrl } = JSON.parse(
  await new Promise((done) => createInterface({ input: upstream.stdout }).once('line', done)),
);
const dir = mkdtempSync(join(tmpdir(), 'switchyard-bench-memory-'));
const port = await freePort();
const { file, token, env, logTo } = await chatGatewaySetup({
  cli,
  dir,
  port,
  upstreamUrl,
  model: MODEL,
  name: 'bench-memory',
  credits: 1_000_000_000,
  // Tokens made without --rate and --concurrency: no rate or concurrency limit.
  extra: { tokens: { default_rate_per_second: null, default_concurrency: null } },
});
const serve = serveCommand({ cli, file, env });
const server = spawn(serve.command, serve.args, { env: serve.env, stdio: ['ignore', logTo, 'ignore'] });
const base = `http://127.0.0.1:${port}`;
for (let up = false; !up; await sleep(100)) {
  up = await request(`${base}/readyz`).then(
    async (answer) => (await answer.body.dump(), answer.statusCode === 200),
    () => false,
  );
}
const headers = { authorization: `Bearer ${token.token}`, 'content-type': 'application/json' };
await sleep(5000);
const idleStart = rssMiB(server.pid);

let peak = idleStart;
const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(server.pid))), 500);
const until = Date.now() + minutes * 60_000;
let searches = 0;
let codes = 0;
/** One client sending `body` to `path` until the load ends, counting answers. */
async function loop(path, body, count) {
  for (let i = 0; Date.now() < until; i += 1) {
    const answer = await request(`${base}${path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body(i)),
    });
    await answer.body.dump();
    if (answer.statusCode === 200) count();
  }
}
const chat = autocannon({
  url: `${base}/chatmodel/chat/completions`,
  method: 'POST',
  headers,
  body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'a few words back' }] }),
  connections: 16,
  duration: minutes * 60,
});
const [chatResult] = await Promise.all([
  chat,
  loop(
    '/serp/web',
    (i) => ({ query: `memory ${i % 500}` }),
    () => (searches += 1),
  ),
  loop(
    '/qrart/tasks',
    (i) => ({ action: 'generate', content: `https://example.com/${i % 50}`, seed: i }),
    () => (codes += 1),
  ),
]);
clearInterval(sampler);
await sleep(settleSeconds * 1000);
const idleAfter = rssMiB(server.pid);
server.kill();
upstream.kill();
rmSync(dir, { recursive: true, force: true });

const report = {
  benchmark: 'memory',
  machine: machine(),
  minutes,
  load: {
    chat_requests: chatResult.requests.total,
    chat_non2xx: chatResult.non2xx,
    searches,
    qr_codes: codes,
  },
  rss_mib: { idle_at_start: idleStart, peak_under_load: peak, idle_after_load: idleAfter },
  target_idle_mib: TARGET_MIB,
};
saveReport('memory', report);
const m = report.machine;
console.log(`machine: ${m.cpus} × ${m.cpu}, ${m.memory_gib} GiB, node ${m.node}`);
console.log(
  `load: ${minutes} min, ${report.load.chat_requests} chat requests (${report.load.chat_non2xx} not 2xx), ${searches} searches, ${codes} QR codes`,
);
console.log('moment                       RSS MiB');
console.log(`idle after start             ${String(idleStart).padStart(7)}`);
console.log(`peak under load              ${String(peak).padStart(7)}`);
console.log(`idle ${settleSeconds} s after the load    ${String(idleAfter).padStart(7)}`);
const met = (mib) => (mib <= TARGET_MIB ? 'met' : 'NOT met');
console.log(`target idle ≤ ${TARGET_MIB} MiB: at start ${met(idleStart)}, after load ${met(idleAfter)}`);
