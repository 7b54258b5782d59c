// How long the server's event loop stalls while music is made: the real `serve` from dist/ with
// its defaults (embedded store, task workers in the API's process, one audio worker thread per
// core), a chat channel to the loopback upstream of bench/chat.mjs and a credited token. Chat
// completions flow the whole time (a few connections, paced under the token's default rate)
// while the music actions run one after the other: generate (two songs of about a minute and a
// half), extend the first, concat the extension into the whole song, stems and vox of that.
// The event loop delay is read from inside the server: `/metrics` exposes prom-client's
// `nodejs_eventloop_lag_*` gauges, computed with monitorEventLoopDelay (10 ms resolution, so an
// idle loop reads about 10 ms) and reset at each scrape; one scrape opens an action's window and
// one closes it. The chat latency the clients see in that window is the outside view of it.
// --tree LABEL=PATH (repeatable) measures other checkouts with their own dist/ in the same run,
// alternating `--rounds` times, for a before/after on one machine.
// Usage: npm run build && node bench/event-loop.mjs [--rounds 1]
//   [--connections 4] [--chat-rate 32] [--tree before=/tmp/old --tree after=.] [--cpu-prof DIR]
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { chatGatewaySetup, serveCommand } from './chat-gateway.mjs';
import { sleep, startChild, startUpstream, stopChild, temporaryDir } from './children.mjs';
import { freePort, machine, saveReport } from './common.mjs';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '1' },
    connections: { type: 'string', default: '4' },
    'chat-rate': { type: 'string', default: '32' },
    'idle-seconds': { type: 'string', default: '5' },
    tree: { type: 'string', multiple: true },
    'cpu-prof': { type: 'string' },
  },
});
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const chatRate = Number(values['chat-rate']);
const idleSeconds = Number(values['idle-seconds']);
const root = new URL('..', import.meta.url).pathname;
const trees = (values.tree ?? [`this tree=${root}`]).map((spec) => {
  const at = spec.indexOf('=');
  return at < 0
    ? { label: spec, path: resolve(spec) }
    : { label: spec.slice(0, at), path: resolve(spec.slice(at + 1)) };
});
for (const tree of trees) {
  if (!existsSync(join(tree.path, 'dist/cli/main.js')))
    throw new Error(`${tree.path}/dist is missing: run \`npm run build\` there`);
}

/** The p99 the loop may reach while music is made and chat flows. */
const TARGET_P99_MS = 50;
const CREDITS = 100_000_000;
const MODEL = 'chatmodel-4o';
const CHAT_BODY = JSON.stringify({
  model: MODEL,
  messages: [{ role: 'user', content: 'Say hello to the benchmark.' }],
});
// Five sections of four lines: about a minute and a half with intro and outro.
const SONG_LYRIC = [
  '[Verse]\nCity lights are calling me\nRunning where the night is free\nEvery window burning gold\nEvery story left untold',
  '[Chorus]\nWe are young and we are gold\nDancing till the night is old\nHold the light and let it glow\nHome is where the rivers go',
  '[Verse]\nWalking down the river road\nSinging softly all alone\nCarry every word I know\nFollow where the waters flow',
  '[Bridge]\nWhen the morning finds us here\nAll the shadows disappear\nSay the word and I will stay\nUntil the night has turned to day',
  '[Chorus]\nWe are young and we are gold\nDancing till the night is old\nHold the light and let it glow\nHome is where the rivers go',
].join('\n');
const EXTENSION_LYRIC =
  '[Verse]\nOne more song before we go\nOne more chorus soft and low\n' +
  '[Chorus]\nWe are young and we are gold\nDancing till the night is old';
const STYLE = 'synth pop, 120 bpm, drums, bass, piano';

const now = () => performance.now();

/** `serve` from the tree's dist/, its defaults but the port, the data folder and one chat channel. */
async function startServer(tree, upstream) {
  const cli = join(tree.path, 'dist/cli/main.js');
  const dir = temporaryDir('switchyard-bench-loop-');
  const port = await freePort();
  const { file, token, env, logTo } = await chatGatewaySetup({
    cli,
    dir,
    port,
    upstreamUrl: upstream.base_url,
    model: MODEL,
    name: 'bench-loop',
    credits: CREDITS,
  });
  const serve = serveCommand({ cli, file, env, cpuProfDir: values['cpu-prof'] });
  const child = startChild(serve.args, { env: serve.env, stdio: ['ignore', logTo, 'pipe'] }, serve.command);
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`serve exited: ${child.stderrTail}`);
    const up = await request(`${url}/readyz`).then(
      async (answer) => (await answer.body.dump(), answer.statusCode === 200),
      () => false,
    );
    if (up) break;
    if (Date.now() > until) throw new Error(`serve did not get ready: ${child.stderrTail}`);
    await sleep(100);
  }
  return { child, url, headers: { authorization: `Bearer ${token.token}` }, tokenLimits: token };
}

/** The loop delay gauges since the last scrape (each scrape resets the histogram), in ms. */
async function loopDelay(server) {
  const answer = await request(`${server.url}/metrics`);
  const text = await answer.body.text();
  const gauge = (name) => {
    const match = text.match(new RegExp(`^switchyard_nodejs_eventloop_lag_${name}_seconds (\\S+)$`, 'm'));
    if (!match) throw new Error(`/metrics has no nodejs_eventloop_lag_${name}_seconds`);
    return Number((Number(match[1]) * 1000).toFixed(1));
  };
  return { p50: gauge('p50'), p90: gauge('p90'), p99: gauge('p99'), max: gauge('max'), mean: gauge('mean') };
}

/**
 * Chat clients, each on its own connection, each sending one completion per period and timing
 * its answer, until stopped. Every answer is checked; `log` keeps (end time, ms, ok).
 */
function startChat(server) {
  const log = [];
  let running = true;
  const period = (1000 * connections) / chatRate;
  const client = async () => {
    const agent = new Agent({ connections: 1 });
    let next = now();
    while (running) {
      const started = now();
      let ok = false;
      try {
        const answer = await request(`${server.url}/chatmodel/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...server.headers },
          body: CHAT_BODY,
          dispatcher: agent,
        });
        const body = await answer.body.json();
        ok = answer.statusCode === 200 && typeof body.choices?.[0]?.message?.content === 'string';
      } catch {
        ok = false;
      }
      const ended = now();
      log.push({ at: ended, ms: ended - started, ok });
      next = Math.max(next + period, ended);
      await sleep(next - now());
    }
    await agent.close();
  };
  const clients = Array.from({ length: connections }, (_, i) =>
    sleep((i * period) / connections).then(client),
  );
  return {
    log,
    async stop() {
      running = false;
      await Promise.all(clients);
    },
  };
}

const percentile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

function chatIn(log, from, to) {
  const inside = log.filter((entry) => entry.at >= from && entry.at <= to);
  const ms = inside.map((entry) => entry.ms).sort((a, b) => a - b);
  const round = (x) => Number(x.toFixed(1));
  return {
    requests: inside.length,
    failed: inside.filter((entry) => !entry.ok).length,
    p50: round(percentile(ms, 0.5)),
    p99: round(percentile(ms, 0.99)),
    max: round(ms.at(-1) ?? 0),
  };
}

async function tune(server, path, body) {
  const answer = await request(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...server.headers },
    body: JSON.stringify(body),
    headersTimeout: 0,
    bodyTimeout: 0,
  });
  const json = await answer.body.json();
  if (answer.statusCode !== 200)
    throw new Error(`${path} ${body.action ?? ''}: ${answer.statusCode} ${JSON.stringify(json)}`);
  return json;
}

/** The music actions in order, each given what the ones before it made. */
const ACTIONS = [
  [
    'generate',
    async (server) => {
      const made = await tune(server, '/tune/audios', {
        action: 'generate',
        custom: true,
        title: 'Bench loop',
        style: STYLE,
        lyric: SONG_LYRIC,
      });
      return { song: made.data[0], audio: made.data.reduce((sum, item) => sum + item.duration, 0) };
    },
  ],
  [
    'extend',
    async (server, made) => {
      const extended = await tune(server, '/tune/audios', {
        action: 'extend',
        audio_id: made.song.id,
        continue_at: Math.round(made.song.duration - 10),
        custom: true,
        lyric: EXTENSION_LYRIC,
      });
      return {
        extension: extended.data[0],
        audio: extended.data.reduce((sum, item) => sum + item.duration, 0),
      };
    },
  ],
  [
    'concat',
    async (server, made) => {
      const whole = await tune(server, '/tune/audios', { action: 'concat', audio_id: made.extension.id });
      return { whole: whole.data[0], audio: whole.data[0].duration };
    },
  ],
  [
    'stems',
    async (server, made) => {
      const parts = await tune(server, '/tune/audios', { action: 'stems', audio_id: made.whole.id });
      return { audio: parts.data.reduce((sum, item) => sum + item.duration, 0) };
    },
  ],
  [
    'vox',
    async (server, made) => {
      await tune(server, '/tune/vox', { audio_id: made.whole.id });
      return { audio: made.whole.duration };
    },
  ],
];

async function measureTree(tree, upstream, round) {
  const server = await startServer(tree, upstream);
  const chat = startChat(server);
  const rows = [];
  try {
    await sleep(1000); // the chat clients' first connections
    await loopDelay(server);
    let from = now();
    await sleep(idleSeconds * 1000);
    rows.push({
      tree: tree.label,
      round,
      action: 'chat only',
      wall_s: idleSeconds,
      audio_s: 0,
      loop_ms: await loopDelay(server),
      chat_ms: chatIn(chat.log, from, now()),
    });
    let made = {};
    for (const [action, work] of ACTIONS) {
      process.stdout.write(`${tree.label} round ${round}: ${action} … `);
      await loopDelay(server);
      from = now();
      const result = await work(server, made);
      const to = now();
      const loop = await loopDelay(server);
      made = { ...made, ...result };
      const row = {
        tree: tree.label,
        round,
        action,
        wall_s: Number(((to - from) / 1000).toFixed(1)),
        audio_s: Number(result.audio.toFixed(1)),
        loop_ms: loop,
        chat_ms: chatIn(chat.log, from, to),
      };
      rows.push(row);
      console.log(`${row.wall_s} s, loop p99 ${loop.p99} ms, max ${loop.max} ms`);
    }
  } finally {
    await chat.stop();
    await stopChild(server.child, 10_000);
  }
  return rows;
}

const report = {
  benchmark: 'event-loop',
  date: new Date().toISOString(),
  machine: { ...machine(), load_average_at_start: loadavg().map((x) => Number(x.toFixed(2))) },
  settings: {
    rounds,
    chat_connections: connections,
    chat_requests_per_second: chatRate,
    token_credits: CREDITS,
    trees: trees.map((tree) => tree.label),
  },
  method:
    "serve from each tree's dist/ with its defaults; the loop delay is the server's own /metrics " +
    '(prom-client nodejs_eventloop_lag_*, monitorEventLoopDelay at 10 ms resolution), scraped at the start ' +
    'and end of each action (each scrape resets it); chat latency is what the clients saw in that window',
  target: { loop_p99_ms_max: TARGET_P99_MS },
  results: [],
};

const upstream = await startUpstream();
for (let round = 1; round <= rounds; round += 1) {
  for (const tree of trees) report.results.push(...(await measureTree(tree, upstream, round)));
}
await stopChild(upstream.child, 10_000);
report.machine.load_average_at_end = loadavg().map((x) => Number(x.toFixed(2)));

const music = report.results.filter((row) => row.action !== 'chat only');
report.target_met = Object.fromEntries(
  trees.map((tree) => [
    tree.label,
    music.filter((row) => row.tree === tree.label).every((row) => row.loop_ms.p99 <= TARGET_P99_MS),
  ]),
);

const m = report.machine;
console.log(`\nmachine: ${m.cpus} × ${m.cpu}, ${m.memory_gib} GiB, node ${m.node}`);
console.log(
  `load average at start ${m.load_average_at_start.join(' ')}, at end ${m.load_average_at_end.join(' ')}`,
);
console.log(
  `chat: ${connections} connections, ${chatRate} requests/s in all; loop delay from the server's /metrics ` +
    '(10 ms resolution: an idle loop reads about 10 ms)\n',
);
const header = [
  'tree',
  'round',
  'action',
  'wall s',
  'audio s',
  'loop p50',
  'loop p99',
  'loop max',
  'chat p50',
  'chat p99',
  'chat max',
  'chats',
  'failed',
];
const widths = [12, 6, 10, 8, 8, 9, 9, 9, 9, 9, 9, 7, 7];
const line = (cells) =>
  cells.map((c, i) => (i < 3 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('');
console.log(line(header));
for (const r of report.results) {
  console.log(
    line([
      r.tree,
      r.round,
      r.action,
      r.wall_s,
      r.audio_s,
      r.loop_ms.p50,
      r.loop_ms.p99,
      r.loop_ms.max,
      r.chat_ms.p50,
      r.chat_ms.p99,
      r.chat_ms.max,
      r.chat_ms.requests,
      r.chat_ms.failed,
    ]),
  );
}
for (const tree of trees) {
  const rows = music.filter((row) => row.tree === tree.label);
  const worst = Math.max(...rows.map((row) => row.loop_ms.p99));
  const max = Math.max(...rows.map((row) => row.loop_ms.max));
  console.log(
    `${tree.label}: worst loop p99 over the music actions ${worst} ms, max ${max} ms ` +
      `(target p99 ≤ ${TARGET_P99_MS} ms: ${report.target_met[tree.label] ? 'met' : 'NOT met'})`,
  );
}
saveReport('event-loop', report);
if (report.results.some((row) => row.chat_ms.failed > 0)) process.exitCode = 1;
