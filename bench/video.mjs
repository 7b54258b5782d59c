// Speed of the local video engine: 5 s clips (120 frames at 24 fps) of a procedural scene with a
// camera move, rendered and encoded (H.264, one ffmpeg thread) in this process's one thread, at
// 480p, 720p and 1080p; seconds of video per second of compute. The target is 5 s of 720p in at
// most 10 s on one core: the render is single-threaded JavaScript and ffmpeg runs with -threads 1.
// Usage: npm run build && node bench/video.mjs [--runs 3]
import { parseArgs } from 'node:util';
import { renderVideo } from '../dist/engines/video/index.js';
import { machine, saveReport } from './common.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const RUNS = Number(values.runs);
const TARGET_720P_SECONDS = 10;
const SECONDS = 5;
const FPS = 24;

const SIZES = [
  ['480p', 854, 480],
  ['720p', 1280, 720],
  ['1080p', 1920, 1080],
];

const spec = (width, height, seed) => ({
  seed,
  prompt: 'a calm ocean at sunset, gentle waves',
  width,
  height,
  fps: FPS,
  frames: SECONDS * FPS,
  quality: 'std',
  camera: { kind: 'simple', config: { zoom: 0.5 } },
});

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Warm-up: the engine's tables and ffmpeg's first start.
await renderVideo({ ...spec(320, 180, 0), frames: 24 });

const table = [];
for (const [name, width, height] of SIZES) {
  const times = [];
  let bytes = 0;
  for (let run = 1; run <= RUNS; run += 1) {
    const started = process.hrtime.bigint();
    const video = await renderVideo(spec(width, height, run));
    times.push(Number(process.hrtime.bigint() - started) / 1e9);
    bytes = video.mp4.length;
    if (video.frames !== SECONDS * FPS) throw new Error(`${name}: ${video.frames} frames`);
  }
  const seconds = median(times);
  table.push({
    resolution: name,
    size: `${width}×${height}`,
    wall_s: +seconds.toFixed(2),
    realtime: +(SECONDS / seconds).toFixed(2),
    mp4_kib: Math.round(bytes / 1024),
  });
}
console.table(table);
const p720 = table.find((row) => row.resolution === '720p');
const ratio = +(table[2].wall_s / table[0].wall_s).toFixed(2);
console.log(
  `5 s of 720p: ${p720.wall_s} s (target ≤ ${TARGET_720P_SECONDS} s: ${p720.wall_s <= TARGET_720P_SECONDS ? 'met' : 'missed'}); 1080p / 480p time: ×${ratio}`,
);

saveReport('video', {
  date: new Date().toISOString(),
  machine: machine(),
  request: `${SECONDS} s at ${FPS} fps, prompt "a calm ocean at sunset, gentle waves", camera zoom 0.5, quality std`,
  method: `one warm-up render, then ${RUNS} renders per size in one thread (ffmpeg -threads 1); medians`,
  targets: { seconds_720p: TARGET_720P_SECONDS },
  target_met: p720.wall_s <= TARGET_720P_SECONDS,
  result: { table, time_1080p_over_480p: ratio },
});
