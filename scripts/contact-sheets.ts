/**
 * Contact sheets of the showcase prompts (scripts/showcase-prompts.ts): the first frame of each
 * video scene, and each QR art render, tiled with the prompt under it, written as JPEG to
 * docs/images/video-scenes.jpg and docs/images/qrart-styles.jpg.
 * Usage: npx tsx scripts/contact-sheets.ts [video|qr]
 */
import { writeFileSync } from 'node:fs';
import { createCanvas, ImageData } from '@napi-rs/canvas';
import type { Canvas } from '../src/engines/canvas.js';
import { decodeImage } from '../src/engines/image-codec.js';
import { renderQrArt } from '../src/engines/qr/index.js';
import { sceneFrames } from '../src/engines/video/render.js';
import { QR_PROMPTS, VIDEO_PROMPTS } from './showcase-prompts.js';

const COLUMNS = 5;
const CAPTION = 22;

function sheet(
  tiles: { image: Canvas; caption: string }[],
  width: number,
  height: number,
  out: string,
): void {
  const rows = Math.ceil(tiles.length / COLUMNS);
  const canvas = createCanvas(COLUMNS * width, rows * (height + CAPTION));
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#1c1c1c';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.font = '13px DejaVu Sans';
  ctx.fillStyle = '#eeeeee';
  tiles.forEach(({ image, caption }, k) => {
    const [x, y] = [(k % COLUMNS) * width, Math.floor(k / COLUMNS) * (height + CAPTION)];
    const pixels = new ImageData(new Uint8ClampedArray(image.data), image.width, image.height);
    ctx.putImageData(pixels, x, y);
    ctx.fillText(caption, x + 6, y + height + 15, width - 12);
  });
  writeFileSync(out, canvas.encodeSync('jpeg', 82));
  console.log(`${out}: ${tiles.length} tiles`);
}

function videoSheet(): void {
  const [width, height] = [384, 216];
  const tiles = VIDEO_PROMPTS.map((prompt, k) => {
    const frame = new Int32Array(width * height);
    sceneFrames({ seed: 7 + k, prompt, width, height, fps: 24, frames: 24, quality: 'std' })(0, frame);
    return { image: { width, height, data: new Uint8Array(frame.buffer) }, caption: prompt };
  });
  sheet(tiles, width, height, 'docs/images/video-scenes.jpg');
}

function qrSheet(): void {
  const side = 256;
  const tiles = QR_PROMPTS.map((prompt, k) => {
    const art = renderQrArt({
      content: 'https://switchyard.example/docs',
      type: 'link',
      ecl: 'H',
      seed: 11 + k,
      aspectRatio: '1:1',
      paddingLevel: 5,
      prompt,
    });
    const full = decodeImage(art.png, 1 << 24);
    const image = { width: side, height: side, data: new Uint8Array(side * side * 4) };
    const step = full.width / side;
    for (let y = 0; y < side; y += 1)
      for (let x = 0; x < side; x += 1) {
        const s = (Math.floor(y * step) * full.width + Math.floor(x * step)) * 4;
        image.data.set(full.data.subarray(s, s + 4), (y * side + x) * 4);
      }
    return { image, caption: prompt };
  });
  sheet(tiles, side, side, 'docs/images/qrart-styles.jpg');
}

const which = process.argv[2];
if (which !== 'qr') videoSheet();
if (which !== 'video') qrSheet();
