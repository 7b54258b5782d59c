// Renders the sample images of the QR art docs into docs/images/qrart/: pixel styles, marker
// shapes, presets, contrast (qrw), position on 16:9, rotation and image blending, all encoding
// https://switchyard.example/docs (type link) with fixed seeds, so a rerun writes the same files.
// Each sample must read back with jsQR, and stay small enough for the repository; the script
// stops with an error otherwise.
// Usage: npm run build && node scripts/qrart-samples.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { renderQrArt } from '../dist/engines/qr/index.js';

const OUT = new URL('../docs/images/qrart/', import.meta.url);
const CONTENT = 'https://switchyard.example/docs';
const SEED = 20_250_611;
const MAX_BYTES = 400 * 1024;
const MAX_TOTAL = 6 * 1024 * 1024;

// A CommonJS module: the function is the module (or its default, depending on the loader).
const jsQR = jsQRModule.default ?? jsQRModule;

/**
 * A 1024×768 poster: flat circles on a flat ground. Flat colours keep the halftone regular, so
 * the blended PNG compresses to a size the repository can hold.
 */
function posterImage(width = 1024, height = 768) {
  const data = new Uint8Array(width * height * 4);
  const ground = [236, 214, 170];
  const circles = [
    [0.28, 0.35, 0.22, [222, 92, 64]],
    [0.72, 0.58, 0.28, [46, 120, 170]],
    [0.5, 0.9, 0.16, [246, 196, 70]],
    [0.12, 0.85, 0.1, [90, 150, 90]],
  ];
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const u = x / width;
      const v = (y / height) * (height / width);
      const hit = circles.find(([cx, cy, r]) => Math.hypot(u - cx, v - cy * (height / width)) < r);
      const rgb = hit ? hit[3] : ground;
      const o = (y * width + x) * 4;
      data[o] = rgb[0];
      data[o + 1] = rgb[1];
      data[o + 2] = rgb[2];
      data[o + 3] = 255;
    }
  }
  return { width, height, data };
}

const base = { content: CONTENT, type: 'link', ecl: 'H', seed: SEED, aspectRatio: '1:1', preset: 'ocean' };
const samples = {
  'square.png': { pixelStyle: 'square' },
  'rounded.png': { pixelStyle: 'rounded' },
  'dot.png': { pixelStyle: 'dot' },
  'squircle.png': { pixelStyle: 'squircle' },
  'row.png': { pixelStyle: 'row' },
  'column.png': { pixelStyle: 'column' },
  'markers-circle.png': { pixelStyle: 'rounded', markerShape: 'circle', subMarker: 'circle' },
  'markers-octagon.png': { pixelStyle: 'rounded', markerShape: 'octagon', subMarker: 'box' },
  'markers-plus.png': { pixelStyle: 'rounded', markerShape: 'plus', subMarker: 'plus' },
  'preset-sunset.png': { preset: 'sunset', pixelStyle: 'rounded' },
  'preset-neon.png': { preset: 'neon', pixelStyle: 'rounded' },
  'preset-ink.png': { preset: 'ink', pixelStyle: 'rounded' },
  'preset-forest.png': { preset: 'forest', pixelStyle: 'rounded' },
  'qrw-1.5.png': { pixelStyle: 'rounded', qrw: 1.5 },
  'qrw-3.png': { pixelStyle: 'rounded', qrw: 3 },
  'position-bottom-right-16x9.png': {
    pixelStyle: 'rounded',
    aspectRatio: '16:9',
    position: 'bottom-right',
    paddingLevel: 10,
    paddingNoise: 0.5,
  },
  'rotate-90.png': { pixelStyle: 'rounded', rotate: 90 },
  'blend.png': { pixelStyle: 'square', image: posterImage() },
};

mkdirSync(OUT, { recursive: true });
const problems = [];
const rows = [];
let total = 0;
for (const [file, options] of Object.entries(samples)) {
  const art = renderQrArt({ ...base, ...options });
  writeFileSync(new URL(file, OUT), art.png);
  const image = PNG.sync.read(art.png);
  const read = jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data ?? null;
  total += art.png.length;
  rows.push({
    file,
    size: `${art.width}×${art.height}`,
    kib: Math.round(art.png.length / 1024),
    jsQR: read === CONTENT,
  });
  if (read !== CONTENT)
    problems.push(`${file}: jsQR read ${read === null ? 'nothing' : JSON.stringify(read)}`);
  if (art.png.length > MAX_BYTES) problems.push(`${file}: ${art.png.length} bytes, more than ${MAX_BYTES}`);
}
console.table(rows);
console.log(`${rows.length} samples, ${(total / 2 ** 20).toFixed(2)} MiB in all, in docs/images/qrart/`);
if (total > MAX_TOTAL) problems.push(`${total} bytes in all, more than ${MAX_TOTAL}`);
if (problems.length > 0) {
  console.error(`Samples that fail:\n${problems.join('\n')}`);
  process.exit(1);
}
