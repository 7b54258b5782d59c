// A CPU profile (.cpuprofile, as `node --cpu-prof` writes it; BENCH_CPU_PROF and --cpu-prof of
// the benchmarks) summed up as text: the functions with the most self time, and the time spent
// under each file or package (inclusive: a file counts once per sample, wherever it is on the
// stack). Idle and the profiler's own samples are left out of the shares, so that two profiles of
// different lengths or loads compare share for share.
// Usage: node bench/profile-summary.mjs FILE.cpuprofile [--top 30] [--json OUT.json]
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '30' }, json: { type: 'string' } },
});
if (positionals.length !== 1) {
  console.error('usage: node bench/profile-summary.mjs FILE.cpuprofile [--top 30] [--json OUT.json]');
  process.exit(2);
}
const top = Number(values.top);
const profile = JSON.parse(readFileSync(positionals[0], 'utf8'));

const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

/** Where a frame's code lives, shortened: a package under node_modules, or the path in the tree. */
function placeOf(url) {
  if (url === '') return '(native)';
  const inPackage = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (inPackage) return inPackage[1];
  return url.replace(/^file:\/\/.*?\/(dist|src|bench)\//, '$1/');
}

const NOT_WORK = new Set(['(idle)', '(program)', '(root)']);
const micros = new Map();
profile.samples.forEach((id, i) => micros.set(id, (micros.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

let busy = 0;
const self = new Map();
const under = new Map();
for (const [id, us] of micros) {
  const node = nodes.get(id);
  if (NOT_WORK.has(node.callFrame.functionName)) continue;
  busy += us;
  const frame = node.callFrame;
  const name = `${frame.functionName || '(anonymous)'} ${placeOf(frame.url)}:${frame.lineNumber + 1}`;
  self.set(name, (self.get(name) ?? 0) + us);
  const seen = new Set();
  for (let at = id; at !== undefined; at = parentOf.get(at)) {
    const { callFrame } = nodes.get(at);
    if (callFrame.functionName === '(root)') continue;
    const place = placeOf(callFrame.url);
    if (seen.has(place)) continue;
    seen.add(place);
    under.set(place, (under.get(place) ?? 0) + us);
  }
}

const ranked = (map) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, us]) => ({
      name,
      ms: Math.round(us / 1000),
      share: Number(((100 * us) / busy).toFixed(1)),
    }));
const summary = { busy_ms: Math.round(busy / 1000), self: ranked(self), inclusive: ranked(under) };

console.log(`busy ${summary.busy_ms} ms (idle and the profiler left out)`);
for (const [title, rows] of [
  ['self time', summary.self],
  ['inclusive, by file or package', summary.inclusive],
]) {
  console.log(`\n${title}`);
  for (const row of rows) console.log(`${row.share.toFixed(1).padStart(6)} %  ${row.name}`);
}
if (values.json) writeFileSync(values.json, `${JSON.stringify(summary, null, 2)}\n`);
