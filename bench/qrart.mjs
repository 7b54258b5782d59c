// Speed of the artistic QR renderer, in-process: a 768×768 PNG (aspect 1:1) from a link of 31
// bytes at ecl H, rendered one at a time, without and with a content image to blend (a synthetic
// 1024×768 RGBA picture, the same for every render). Each render varies the seed and the style
// (pixel style, finder and alignment markers, preset, rotation) in a fixed cycle, so both
// measurements see the same mix. PNG encoding is part of a render, as it is for a task.
// Usage: npm run build && node bench/qrart.mjs [--renders 60] [--warmup 10]
import { parseArgs } from 'node:util';
import { renderQrArt } from '../dist/engines/qr/index.js';
import { machine, saveReport } from './common.mjs';

const { values } = parseArgs({
  options: {
    renders: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '10' },
  },
});
const RENDERS = Number(values.renders);
const WARMUP = Number(values.warmup);
const TARGET_PLAIN_P50_MS = 100;

const STYLES = ['square', 'rounded', 'dot', 'squircle', 'row', 'column'];
const MARKERS = ['square', 'circle', 'plus', 'box', 'octagon', 'tiny-plus'];
const SUB_MARKERS = ['square', 'circle', 'box', 'plus'];
const PRESETS = ['ocean', 'sunset', 'neon', 'ink', 'forest', 'galaxy', 'candy'];

/** A 1024×768 picture: a diagonal gradient with soft-edged circles, fully opaque. */
function syntheticImage(width = 1024, height = 768) {
  const data = new Uint8Array(width * height * 4);
  const circles = [
    [0.25, 0.3, 0.2, [240, 90, 60]],
    [0.7, 0.6, 0.25, [40, 160, 220]],
    [0.5, 0.85, 0.12, [250, 210, 60]],
  ];
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const u = x / width;
      const v = y / height;
      let rgb = [60 + 150 * u, 90 + 100 * v, 200 - 120 * u];
      for (const [cx, cy, r, colour] of circles) {
        const d = Math.hypot(u - cx, (v - cy) * (height / width));
        const w = Math.max(0, Math.min(1, (r - d) / 0.02));
        rgb = rgb.map((c, i) => c + (colour[i] - c) * w);
      }
      const o = (y * width + x) * 4;
      data[o] = rgb[0];
      data[o + 1] = rgb[1];
      data[o + 2] = rgb[2];
      data[o + 3] = 255;
    }
  }
  return { width, height, data };
}

const request = (i, image) => ({
  content: 'https://switchyard.example/docs',
  type: 'link',
  ecl: 'H',
  seed: 1000 + i,
  aspectRatio: '1:1',
  pixelStyle: STYLES[i % STYLES.length],
  markerShape: MARKERS[i % MARKERS.length],
  subMarker: SUB_MARKERS[i % SUB_MARKERS.length],
  preset: PRESETS[i % PRESETS.length],
  rotate: (i % 4) * 90,
  paddingLevel: 5,
  paddingNoise: 0.25,
  qrw: 2.25,
  steps: 15,
  image,
});

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

function measure(name, image) {
  for (let i = 0; i < WARMUP; i += 1) renderQrArt(request(i, image));
  const latencies = [];
  let bytes = 0;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < RENDERS; i += 1) {
    const t = process.hrtime.bigint();
    const art = renderQrArt(request(i, image));
    latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
    bytes += art.png.length;
    if (art.width !== 768 || art.height !== 768) throw new Error(`${name}: ${art.width}×${art.height}`);
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  latencies.sort((a, b) => a - b);
  return {
    case: name,
    renders: RENDERS,
    renders_per_second: +(RENDERS / seconds).toFixed(1),
    p50_ms: +percentile(latencies, 50).toFixed(1),
    p99_ms: +percentile(latencies, 99).toFixed(1),
    max_ms: +latencies[latencies.length - 1].toFixed(1),
    mean_png_kib: Math.round(bytes / RENDERS / 1024),
  };
}

const image = syntheticImage();
const plain = measure('plain (procedural art)', undefined);
const blended = measure('blended (1024×768 image)', image);
const ratio = +(blended.p50_ms / plain.p50_ms).toFixed(2);
console.table([plain, blended]);
console.log(
  `blended / plain p50: ×${ratio}; target p50 ≤ ${TARGET_PLAIN_P50_MS} ms without blending: ${
    plain.p50_ms <= TARGET_PLAIN_P50_MS ? 'met' : 'missed'
  }`,
);

saveReport('qrart', {
  date: new Date().toISOString(),
  machine: machine(),
  request:
    '768×768 PNG (aspect 1:1), link of 31 bytes at ecl H, padding 5, noise 0.25, qrw 2.25, steps 15; ' +
    'seed, pixel style, markers, preset and rotation vary per render in a fixed cycle',
  image: 'synthetic 1024×768 RGBA (gradient and circles), scaled to cover the canvas',
  method: `${WARMUP} warm-up renders, then ${RENDERS} timed renders one at a time, per case, in one process`,
  targets: { plain_p50_ms: TARGET_PLAIN_P50_MS },
  target_met: plain.p50_ms <= TARGET_PLAIN_P50_MS,
  result: { plain, blended, blended_over_plain_p50: ratio },
});
