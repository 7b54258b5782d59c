// The credited chat proxy of two or more builds of Switchyard side by side: each tree's dist/
// serves the same loopback upstream (bench/chat-upstream.mjs) with a credited token, plain and
// streamed, 32 connections, the trees taking turns for `--rounds` rounds so that background load
// falls on all alike. Reports req/s and the gateway's CPU µs per request (from /proc), medians
// over the rounds, and each tree's ratio to the first. With --latency N, also up to N requests
// one at a time (at most 5 s), each paired with one straight to the upstream: the latency the
// gateway adds, p50.
// Usage: node bench/chat-trees.mjs --trees /tmp/before,. [--rounds 2] [--duration 6]
//   [--modes plain,stream] [--latency 0] [--cpu-prof DIR]
// A tree is a checkout with its own build (`git worktree add /tmp/before REV`, then
// `npm run build` there); --cpu-prof writes each tree's server profile under DIR.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { chatGatewaySetup, serveCommand } from './chat-gateway.mjs';
import { cpuSeconds, freePort, machine, saveReport } from './common.mjs';
import { bodies, MODEL, pairedLatency, round3, summary } from './chat-requests.mjs';

const { values } = parseArgs({
  options: {
    trees: { type: 'string' },
    rounds: { type: 'string', default: '2' },
    duration: { type: 'string', default: '6' },
    modes: { type: 'string', default: 'plain,stream' },
    latency: { type: 'string', default: '0' },
    'cpu-prof': { type: 'string' },
  },
});
if (!values.trees) {
  console.error('usage: node bench/chat-trees.mjs --trees DIR,DIR[,…] [--rounds 2] [--duration 6]');
  process.exit(2);
}
const trees = values.trees.split(',').map((tree) => resolve(tree));
const rounds = Number(values.rounds);
const duration = Number(values.duration);
const modes = values.modes.split(',');
const latencySamples = Number(values.latency);
const CREDITS = 100_000_000;

const upstream = spawn(process.execPath, [new URL('./chat-upstream.mjs', import.meta.url).pathname], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const { base_url: upstreamUrl } = await new Promise((done) =>
  upstream.stdout.once('data', (line) => done(JSON.parse(String(line)))),
);

async function startGateway(tree, index) {
  const dir = mkdtempSync(join(tmpdir(), 'chat-trees-'));
  const port = await freePort();
  const cli = join(tree, 'dist/cli/main.js');
  const { file, token, env, logTo } = await chatGatewaySetup({
    cli,
    dir,
    port,
    upstreamUrl,
    model: MODEL,
    name: 'bench-trees',
    credits: CREDITS,
    extra: { tokens: { default_rate_per_second: null, default_concurrency: null } },
  });
  const serve = serveCommand({
    cli,
    file,
    env,
    cpuProfDir: values['cpu-prof'] ? join(values['cpu-prof'], `tree-${index}`) : undefined,
  });
  const child = spawn(serve.command, serve.args, { env: serve.env, stdio: ['ignore', logTo, 'inherit'] });
  for (let tries = 0; ; tries += 1) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) break;
    } catch {
      if (tries > 150) throw new Error(`${tree} did not start`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, port, secret: token.token, dir };
}

const samples = new Map();
for (let round = 1; round <= rounds; round += 1) {
  for (const [index, tree] of trees.entries()) {
    const { child, port, secret, dir } = await startGateway(tree, index);
    for (const mode of modes) {
      const options = {
        url: `http://127.0.0.1:${port}/chatmodel/chat/completions`,
        method: 'POST',
        connections: 32,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
        body: bodies[mode],
      };
      await autocannon({ ...options, duration: 2 });
      const before = cpuSeconds(child.pid);
      const result = await autocannon({ ...options, duration });
      const failures = result.non2xx + result.errors + result.timeouts;
      const sample = {
        rps: Math.round(result.requests.average),
        cpu_us: Math.round(((cpuSeconds(child.pid) - before) * 1e6) / result.requests.total),
        failures,
      };
      if (latencySamples > 0) {
        const paired = await pairedLatency({
          target: { url: options.url, headers: { authorization: `Bearer ${secret}` } },
          direct: {
            url: `${upstreamUrl}/chat/completions`,
            headers: { authorization: 'Bearer sk-bench-upstream' },
          },
          mode,
          samples: latencySamples,
          seconds: 5,
        });
        sample.failures += paired.failures;
        sample.added_p50_ms = round3(summary(paired.times).p50 - summary(paired.baseline).p50);
      }
      const key = `${index} ${mode}`;
      samples.set(key, [...(samples.get(key) ?? []), sample]);
      console.log(
        `round ${round}: ${tree} ${mode} … ${sample.rps} req/s, ${sample.cpu_us} µs CPU/req, ` +
          `${sample.added_p50_ms === undefined ? '' : `added p50 ${sample.added_p50_ms} ms, `}${sample.failures} failures`,
      );
    }
    child.kill('SIGINT');
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}
upstream.kill();

const median = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};
const rows = [];
for (const mode of modes) {
  for (const [index, tree] of trees.entries()) {
    const list = samples.get(`${index} ${mode}`);
    rows.push({
      tree,
      mode,
      rps: median(list.map((s) => s.rps)),
      cpu_us: median(list.map((s) => s.cpu_us)),
      ...(latencySamples > 0 ? { added_p50_ms: median(list.map((s) => s.added_p50_ms)) } : {}),
      failures: list.reduce((sum, s) => sum + s.failures, 0),
    });
  }
}
const first = (mode) => rows.find((r) => r.mode === mode);
console.log(
  '\ntree                          mode      req/s   CPU µs/req   ×req/s   ×CPU   failures   added p50 ms',
);
for (const row of rows) {
  const base = first(row.mode);
  console.log(
    `${row.tree.padEnd(30)}${row.mode.padEnd(8)}${String(row.rps).padStart(7)}${String(row.cpu_us).padStart(13)}` +
      `${(row.rps / base.rps).toFixed(2).padStart(9)}${(row.cpu_us / base.cpu_us).toFixed(2).padStart(7)}${String(row.failures).padStart(11)}` +
      `${String(row.added_p50_ms ?? '').padStart(15)}`,
  );
}
saveReport('chat-trees', {
  benchmark: 'chat-trees',
  date: new Date().toISOString(),
  machine: machine(),
  settings: {
    rounds,
    duration_s: duration,
    connections: 32,
    latency_samples: latencySamples,
    token: `credited (${CREDITS})`,
  },
  rows,
});
process.exit(0);
