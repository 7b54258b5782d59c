// What starting a tool costs the process that starts it, as that process's memory grows. Node
// forks to spawn, and a fork copies the parent's page tables, so the event loop stops for longer
// the more memory the server holds. This is why the audio engine encodes and decodes all of a
// song's stems with one ffmpeg rather than one per stem.
// Usage: node bench/spawn.mjs [--spawns 20] [--steps 4]
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { machine, saveReport } from './common.mjs';

const { values } = parseArgs({
  options: { spawns: { type: 'string', default: '20' }, steps: { type: 'string', default: '4' } },
});
const SPAWNS = Number(values.spawns);
const STEP_MB = 256;

const held = [];
const rows = [];
for (let step = 0; step <= Number(values.steps); step += 1) {
  if (step > 0) held.push(new Float32Array((STEP_MB * 2 ** 20) / 4).fill(1));
  const blocked = [];
  for (let n = 0; n < SPAWNS; n += 1) {
    const started = process.hrtime.bigint();
    const child = spawn('/bin/true');
    // spawn() returns once the child exists: the time the event loop stood still.
    blocked.push(Number(process.hrtime.bigint() - started) / 1e6);
    await new Promise((resolve) => child.on('exit', resolve));
  }
  blocked.sort((a, b) => a - b);
  rows.push({
    rss_mb: Math.round(process.memoryUsage().rss / 2 ** 20),
    spawn_ms_p50: +blocked[blocked.length >> 1].toFixed(1),
    spawn_ms_max: +blocked[blocked.length - 1].toFixed(1),
  });
}
console.table(rows);
const ratio = +(rows[rows.length - 1].spawn_ms_p50 / rows[0].spawn_ms_p50).toFixed(1);
console.log(`spawn at ${rows[rows.length - 1].rss_mb} MB / at ${rows[0].rss_mb} MB: ×${ratio}`);
saveReport('spawn', {
  date: new Date().toISOString(),
  machine: machine(),
  method: `${SPAWNS} spawns of /bin/true at each size, one after the other; time spent inside spawn()`,
  result: { rows, ratio_largest_to_smallest: ratio },
});
