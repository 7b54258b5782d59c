// Chat gateway cost: OpenAI-format chat completions through a fake upstream on loopback that
// answers at once (bench/chat-upstream.mjs), sent (1) to the upstream directly, (2) through the
// Portkey gateway (@portkey-ai/gateway, installed from npm into a temporary folder by this script,
// one Node process, `x-portkey-provider: openai` with `x-portkey-custom-host` pointing at the
// upstream), and through Switchyard (`/chatmodel/chat/completions`, the real `serve` from dist/,
// started by bin/switchyard as users start it, with one channel to the upstream) with (3) an
// unlimited token and (4) a credited one (each request admitted, charged and recorded against its
// balance, as most tokens in use are), and (5) through a bare relay (bench/chat-relay.mjs: the
// least a Node gateway does, as a floor), each server in its own process, all in one run: for each
// mode (non-streamed, streamed) the five are measured in turn, and the turns repeat for `--rounds`
// rounds, so that background load falls on all alike; the medians over the rounds are compared.
// Throughput: autocannon at moderate load after a warm-up. Latency: requests sent one at a time,
// timed with process.hrtime (autocannon counts whole milliseconds); for a gateway, each request is
// paired with one straight to the upstream, so that the added latency compares like with like.
// Usage: node bench/chat.mjs [--duration 8] [--connections 32] [--rounds 2] [--warmup 3]
//   [--samples 2000] [--latency-seconds 5] [--credits 100000000] [--portkey-version 1.15.2]
//   [--hono-node-server 1.13.8|none] [--no-portkey] [--cpu-prof DIR] [--baseline DIST]
// --credits N is the credited token's balance; --cpu-prof writes both Switchyard servers' CPU
// profiles into DIR (bench/profile-summary.mjs reads them). --baseline DIST (the dist/ of another build,
// e.g. made by bench/baseline.sh REF) adds that build's server with a credited token to the turns,
// for its CPU per request beside this build's in one run.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import autocannon from 'autocannon';
import { request } from 'undici';
import { chatGatewaySetup, serveCommand } from './chat-gateway.mjs';
import { sleep, startChild, startRelay, startUpstream, stopChild, temporaryDir } from './children.mjs';
import { cpuSeconds, freePort, machine, saveReport } from './common.mjs';
import { bodies, MODEL, pairedLatency, round3, summary, timed } from './chat-requests.mjs';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '8' },
    connections: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '3' },
    samples: { type: 'string', default: '2000' },
    'latency-seconds': { type: 'string', default: '5' },
    'portkey-version': { type: 'string', default: '1.15.2' },
    'hono-node-server': { type: 'string', default: '1.13.8' },
    'no-portkey': { type: 'boolean', default: false },
    credits: { type: 'string', default: '100000000' },
    'cpu-prof': { type: 'string' },
    baseline: { type: 'string' },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const rounds = Number(values.rounds);
const warmup = Number(values.warmup);
const samples = Number(values.samples);
const latencySeconds = Number(values['latency-seconds']);
const portkeyVersion = values['portkey-version'];
const honoNodeServer = values['hono-node-server'];

const root = new URL('..', import.meta.url).pathname;
const defaultCli = join(root, 'dist/cli/main.js');
const run = promisify(execFile);

/** Polls a URL until it answers 200, or throws after `ms`. */
async function waitUntilUp(url, child, what, ms = 30_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null)
      throw new Error(`${what} exited (${child.exitCode}): ${child.stderrTail.trim()}`);
    try {
      const answer = await request(url);
      await answer.body.dump();
      if (answer.statusCode === 200) return;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  throw new Error(`${what} did not answer ${url} within ${ms / 1000} s: ${child.stderrTail.trim()}`);
}

/** {served, connections}: completions the upstream answered, and on how many connections. */
async function upstreamStats(upstream) {
  const answer = await request(`${upstream.url}/stats`);
  return answer.body.json();
}

/**
 * The real server: `switchyard serve --config FILE` from dist/, with a token made by the CLI that
 * has `credits` (undefined: unlimited).
 */
async function startSwitchyard(upstream, name, credits, cli = defaultCli) {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`make setup\` (or \`npm run build\`)`);
  const dir = temporaryDir('switchyard-bench-chat-');
  const port = await freePort();
  const {
    file,
    token: created,
    env,
    logTo,
  } = await chatGatewaySetup({
    cli,
    dir,
    port,
    upstreamUrl: upstream.base_url,
    model: MODEL,
    name: 'bench-chat',
    credits,
    // Tokens made without --rate and --concurrency: no rate or concurrency limit.
    extra: { tokens: { default_rate_per_second: null, default_concurrency: null } },
  });
  if (created.rate_per_second !== 'unlimited')
    throw new Error(`the bench token is rate-limited: ${JSON.stringify(created)}`);
  const serve = serveCommand({
    cli,
    file,
    env,
    cpuProfDir: values['cpu-prof'] ? join(values['cpu-prof'], name) : undefined,
  });
  const child = startChild(serve.args, { env: serve.env, stdio: ['ignore', logTo, 'pipe'] }, serve.command);
  const url = `http://127.0.0.1:${port}`;
  await waitUntilUp(`${url}/readyz`, child, name);
  return {
    child,
    url: `${url}/chatmodel/chat/completions`,
    headers: { authorization: `Bearer ${created.token}` },
  };
}

/**
 * Installs @portkey-ai/gateway into a temporary folder. Its own dependency range lets npm pick
 * @hono/node-server 1.14.2 or later (1.19 today), whose Response keeps the upstream's immutable
 * Headers, and every streamed answer then fails with `TypeError: immutable` (Portkey-AI/gateway
 * #1389, #1550); an npm override pins an earlier one (`--hono-node-server none` to leave it).
 */
async function installPortkey() {
  const dir = temporaryDir('portkey-bench-');
  const manifest = { private: true };
  if (honoNodeServer !== 'none') manifest.overrides = { '@hono/node-server': honoNodeServer };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
  const started = Date.now();
  await run(
    'npm',
    [
      'install',
      '--prefix',
      dir,
      `@portkey-ai/gateway@${portkeyVersion}`,
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
    ],
    { cwd: dir, timeout: 300_000, maxBuffer: 16 * 2 ** 20 },
  );
  const entry = join(dir, 'node_modules/@portkey-ai/gateway/build/start-server.js');
  if (!existsSync(entry)) throw new Error(`npm installed no ${entry}`);
  // The copy the gateway loads: its own nested one when npm made one, else the top-level one.
  const versionOf = (name) => {
    const nested = join(dir, 'node_modules/@portkey-ai/gateway/node_modules', name, 'package.json');
    const file = existsSync(nested) ? nested : join(dir, 'node_modules', name, 'package.json');
    return JSON.parse(readFileSync(file, 'utf8')).version;
  };
  return {
    entry,
    install_seconds: Math.round((Date.now() - started) / 100) / 10,
    versions: {
      '@portkey-ai/gateway': versionOf('@portkey-ai/gateway'),
      '@hono/node-server': versionOf('@hono/node-server'),
      hono: versionOf('hono'),
    },
  };
}

async function startPortkey(install, upstream) {
  const port = await freePort();
  const child = startChild([install.entry, `--port=${port}`, '--headless']);
  child.stdout.resume(); // a start-up spinner and banner
  await waitUntilUp(`http://127.0.0.1:${port}/`, child, 'portkey');
  return {
    child,
    url: `http://127.0.0.1:${port}/v1/chat/completions`,
    headers: {
      authorization: 'Bearer sk-bench-upstream',
      'x-portkey-provider': 'openai',
      'x-portkey-custom-host': upstream.base_url,
    },
  };
}

async function cannon(target, mode, seconds) {
  return autocannon({
    url: target.url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...target.headers },
    body: bodies[mode],
    connections,
    duration: seconds,
  });
}

/**
 * Throughput under load (and the server's own CPU time per request: on a machine whose cores the
 * load generator and the upstream share, the fairer measure of what a gateway costs), then
 * latency one request at a time, paired with the direct path.
 */
async function measure(name, target, mode, upstream, direct) {
  const pid = (target.child ?? upstream.child).pid;
  const check = await timed(target, mode);
  if (check.problem) return { server: name, mode, error: check.problem };
  await cannon(target, mode, warmup);
  const before = await upstreamStats(upstream);
  const cpuBefore = cpuSeconds(pid);
  const result = await cannon(target, mode, duration);
  const cpuAfter = cpuSeconds(pid);
  const after = await upstreamStats(upstream);

  const {
    times,
    baseline,
    failures: sequentialFailures,
    firstProblem,
  } = await pairedLatency({
    target,
    direct,
    mode,
    samples,
    seconds: latencySeconds,
  });
  if (times.length === 0) return { server: name, mode, error: `every timed request failed: ${firstProblem}` };

  const latency = summary(times);
  const row = {
    server: name,
    mode,
    requests_per_second: Math.round(result.requests.average),
    cpu_us_per_request:
      cpuBefore === null || cpuAfter === null
        ? null
        : Math.round(((cpuAfter - cpuBefore) * 1e6) / Math.max(1, result.requests.total)),
    total: result.requests.total,
    // What reached the upstream during the measured run (a gateway answers nothing itself).
    reached_upstream: after.served - before.served,
    upstream_connections_opened: after.connections - before.connections,
    failures: result.non2xx + result.errors + result.timeouts + sequentialFailures,
    failure_detail: {
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      sequential: sequentialFailures,
      ...(firstProblem ? { first_problem: firstProblem } : {}),
    },
    latency_ms: latency,
    load_latency_ms: { p50: result.latency.p50, p99: result.latency.p99, mean: result.latency.mean },
  };
  if (direct) {
    const base = summary(baseline);
    row.baseline_ms = base;
    row.added_ms = { p50: round3(latency.p50 - base.p50), p99: round3(latency.p99 - base.p99) };
  }
  return row;
}

// --- the run -------------------------------------------------------------------------------------

const report = {
  benchmark: 'chat',
  date: new Date().toISOString(),
  machine: { ...machine(), load_average_at_start: loadavg().map((x) => Number(x.toFixed(2))) },
  settings: {
    duration_s: duration,
    connections,
    warmup_s: warmup,
    latency_samples_max: samples,
    latency_seconds_max: latencySeconds,
    rounds,
    credited_token_credits: Number(values.credits),
  },
  portkey: { requested_version: portkeyVersion, hono_node_server_override: honoNodeServer },
  results: [],
};

let install = null;
if (values['no-portkey']) {
  report.portkey.available = false;
  report.portkey.reason = 'skipped (--no-portkey)';
} else {
  console.log(`installing @portkey-ai/gateway@${portkeyVersion} into a temporary folder …`);
  try {
    install = await installPortkey();
    Object.assign(report.portkey, { available: true, ...install, entry: undefined });
  } catch (error) {
    report.portkey.available = false;
    report.portkey.reason = `npm install failed: ${(error.stderr || error.message).toString().trim().slice(0, 1000)}`;
  }
}

const upstream = await startUpstream();
const direct = {
  url: `${upstream.url}/v1/chat/completions`,
  headers: { authorization: 'Bearer sk-bench-upstream' },
};
// All servers are up from the start (an idle one costs nothing), so that within a mode the rows
// are measured back to back, under the same background load.
const relay = await startRelay(upstream);
const targets = [
  ['upstream', direct],
  ['relay', { child: relay.child, url: `${relay.url}/v1/chat/completions`, headers: {} }],
];
targets.push(['switchyard', await startSwitchyard(upstream, 'switchyard')]);
targets.push(['switchyard-credited', await startSwitchyard(upstream, 'switchyard-credited', values.credits)]);
if (values.baseline) {
  const baselineCli = join(values.baseline, 'cli/main.js');
  targets.push([
    'baseline-credited',
    await startSwitchyard(upstream, 'baseline-credited', values.credits, baselineCli),
  ]);
}
if (install) {
  try {
    targets.push(['portkey', await startPortkey(install, upstream)]);
  } catch (error) {
    report.portkey.available = false;
    report.portkey.reason = `could not start: ${error.message}`;
  }
}

for (let round = 1; round <= rounds; round += 1) {
  for (const mode of ['plain', 'stream']) {
    for (const [name, target] of targets) {
      process.stdout.write(`round ${round}: ${name} ${mode} … `);
      const measured = await measure(name, target, mode, upstream, name === 'upstream' ? null : direct);
      const row = { round, ...measured };
      if (row.error && name === 'upstream') throw new Error(`the bench upstream itself fails: ${row.error}`);
      if (row.error && target.child?.stderrTail) {
        const said = target.child.stderrTail.split('\n').find((l) => /error/i.test(l));
        if (said) row.error += ` (its stderr: ${said.trim().slice(0, 300)})`;
      }
      report.results.push(row);
      console.log(
        row.error ? `FAILED ${row.error}` : `${row.requests_per_second} req/s, p50 ${row.latency_ms.p50} ms`,
      );
    }
  }
}
for (const [, target] of targets) if (target.child) await stopChild(target.child);
await stopChild(upstream.child);
report.machine.load_average_at_end = loadavg().map((x) => Number(x.toFixed(2)));

// --- medians, ratios, targets, table --------------------------------------------------------------

const SERVERS = ['upstream', 'relay', 'portkey', 'switchyard', 'switchyard-credited', 'baseline-credited'];
const median = (numbers) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
/** The median over the rounds of each measure of (server, mode); null when no round succeeded. */
function medianRow(server, mode) {
  const rows = report.results.filter((r) => r.server === server && r.mode === mode && !r.error);
  if (rows.length === 0) return null;
  const of = (pick) => {
    const values = rows.map(pick).filter((v) => typeof v === 'number');
    return values.length === 0 ? null : Number(median(values).toFixed(3));
  };
  return {
    server,
    mode,
    rounds: rows.length,
    requests_per_second: Math.round(of((r) => r.requests_per_second)),
    cpu_us_per_request: of((r) => r.cpu_us_per_request),
    latency_p50_ms: of((r) => r.latency_ms.p50),
    added_p50_ms: of((r) => r.added_ms?.p50),
    added_p99_ms: of((r) => r.added_ms?.p99),
    failures: rows.reduce((sum, r) => sum + r.failures, 0),
  };
}
report.medians = [];
for (const mode of ['plain', 'stream'])
  for (const server of SERVERS) {
    const row = medianRow(server, mode);
    if (row) report.medians.push(row);
  }
const find = (server, mode) => report.medians.find((r) => r.server === server && r.mode === mode);
const ratio = (a, b, digits = 2) => (a && b ? Number((a / b).toFixed(digits)) : null);

report.targets = {
  credited_over_portkey_throughput_min: 6,
  credited_over_portkey_throughput_aim: 10,
  credited_over_upstream_throughput_aim: 0.25,
  credited_over_unlimited_cpu_max: 1.15,
  added_p50_ms_max: 1,
};
report.ratio = {};
for (const mode of ['plain', 'stream']) {
  const [up, relayRow, pk, un, cr, base] = SERVERS.map((server) => find(server, mode));
  report.ratio[mode] = {
    credited_over_portkey_throughput: ratio(cr?.requests_per_second, pk?.requests_per_second),
    unlimited_over_portkey_throughput: ratio(un?.requests_per_second, pk?.requests_per_second),
    credited_over_upstream_throughput: ratio(cr?.requests_per_second, up?.requests_per_second, 3),
    credited_over_unlimited_cpu_per_request: ratio(cr?.cpu_us_per_request, un?.cpu_us_per_request),
    portkey_over_credited_cpu_per_request: ratio(pk?.cpu_us_per_request, cr?.cpu_us_per_request),
    credited_over_relay_throughput: ratio(cr?.requests_per_second, relayRow?.requests_per_second, 3),
    credited_over_relay_cpu_per_request: ratio(cr?.cpu_us_per_request, relayRow?.cpu_us_per_request),
    portkey_over_relay_cpu_per_request: ratio(pk?.cpu_us_per_request, relayRow?.cpu_us_per_request),
    credited_over_baseline_cpu_per_request: ratio(cr?.cpu_us_per_request, base?.cpu_us_per_request),
  };
}

const m = report.machine;
console.log(`\nmachine: ${m.cpus} × ${m.cpu}, ${m.memory_gib} GiB, node ${m.node}`);
console.log(
  `load average at start ${m.load_average_at_start.join(' ')}, at end ${m.load_average_at_end.join(' ')}`,
);
console.log(
  `${rounds} rounds; ${duration} s per row after ${warmup} s of warm-up, ${connections} connections; ` +
    `cpu µs/req: the server process's own CPU time per request under that load; ` +
    `latency: one request at a time, +p50/+p99 over the direct path measured alongside\n`,
);
const header = [
  'round',
  'server',
  'mode',
  'req/s',
  'cpu µs/req',
  'p50 ms',
  'p99 ms',
  '+p50 ms',
  '+p99 ms',
  'failures',
];
const widths = [6, 20, 7, 8, 12, 9, 9, 9, 9, 10];
const line = (cells) =>
  cells.map((c, i) => (i < 3 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('');
console.log(line(header));
for (const r of report.results) {
  if (r.error) {
    console.log(`${line([r.round, r.server, r.mode])}   failed: ${r.error.slice(0, 300)}`);
    continue;
  }
  console.log(
    line([
      r.round,
      r.server,
      r.mode,
      r.requests_per_second,
      r.cpu_us_per_request ?? 'n/a',
      r.latency_ms.p50,
      r.latency_ms.p99,
      r.added_ms?.p50 ?? '',
      r.added_ms?.p99 ?? '',
      r.failures,
    ]),
  );
}
console.log('\nmedians over the rounds');
console.log(
  line(['', 'server', 'mode', 'req/s', 'cpu µs/req', 'p50 ms', '', '+p50 ms', '+p99 ms', 'failures']),
);
for (const r of report.medians) {
  console.log(
    line([
      '',
      r.server,
      r.mode,
      r.requests_per_second,
      r.cpu_us_per_request ?? 'n/a',
      r.latency_p50_ms,
      '',
      r.added_p50_ms ?? '',
      r.added_p99_ms ?? '',
      r.failures,
    ]),
  );
}
const portkeyStream = find('portkey', 'stream');
if (portkeyStream) {
  report.portkey.note =
    'Portkey relays a stream through readStream (src/handlers/streamHandler.ts), which waits 25 ms ' +
    '(a fixed setTimeout) before passing on the first event: its streamed latency is at least 25 ms and, with ' +
    `${connections} connections, its streamed throughput at most ${Math.round(connections / 0.025)} req/s.`;
}
if (!report.portkey.available) console.log(`\nportkey: not measured: ${report.portkey.reason}`);
else
  console.log(
    `\nportkey: ${Object.entries(report.portkey.versions)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')} (installed in ${report.portkey.install_seconds} s)`,
  );
const verdict = (value, met) => (value === null ? 'n/a' : `${value} (${met ? 'met' : 'NOT met'})`);
const t = report.targets;
for (const mode of ['plain', 'stream']) {
  const r = report.ratio[mode];
  const credited = find('switchyard-credited', mode);
  console.log(
    `${mode.padEnd(6)} credited / portkey throughput ×${r.credited_over_portkey_throughput ?? 'n/a'}` +
      ` (floor ×${t.credited_over_portkey_throughput_min}, aim ×${t.credited_over_portkey_throughput_aim});` +
      ` unlimited / portkey ×${r.unlimited_over_portkey_throughput ?? 'n/a'};` +
      ` credited / mock ${r.credited_over_upstream_throughput ?? 'n/a'} (aim ${t.credited_over_upstream_throughput_aim})`,
  );
  console.log(
    `${''.padEnd(6)} CPU per request credited / unlimited: ` +
      verdict(
        r.credited_over_unlimited_cpu_per_request,
        r.credited_over_unlimited_cpu_per_request <= t.credited_over_unlimited_cpu_max,
      ) +
      `, target ≤ ×${t.credited_over_unlimited_cpu_max}; portkey / credited ×${r.portkey_over_credited_cpu_per_request ?? 'n/a'};` +
      ` credited added p50 ${verdict(credited?.added_p50_ms ?? null, credited?.added_p50_ms <= t.added_p50_ms_max)} ms, target ≤ ${t.added_p50_ms_max} ms`,
  );
  console.log(
    `${''.padEnd(6)} against the bare relay: credited throughput ×${r.credited_over_relay_throughput ?? 'n/a'},` +
      ` CPU per request credited ×${r.credited_over_relay_cpu_per_request ?? 'n/a'},` +
      ` portkey ×${r.portkey_over_relay_cpu_per_request ?? 'n/a'}`,
  );
  if (values.baseline)
    console.log(
      `${''.padEnd(6)} CPU per request credited, this build / the baseline build: ×${r.credited_over_baseline_cpu_per_request ?? 'n/a'}`,
    );
}
if (report.portkey.note) console.log(`note: ${report.portkey.note}`);
saveReport('chat', report);
if (report.results.some((r) => r.server.startsWith('switchyard') && r.error)) process.exitCode = 1;
