/**
 * PP-OCRv4 text detection (differentiable binarisation) on the rectified card: the model gives
 * each pixel a probability of lying in a text line's core; cores are the connected regions above
 * a threshold, each kept when its mean probability is high, and grown back to the line's extent
 * (the model's cores are the lines shrunk by about area × 1.5 / perimeter). The card is upright
 * after rectification, so a line is an axis-aligned box.
 */
import type { Canvas } from '../../../canvas.js';
import type { Box } from '../../layout.js';
import { textModels } from './models.js';

/** The width the card is given to the detector: a multiple of 32; characters stay ≥ 15 px tall. */
const DETECT_WIDTH = 384;
const CORE_THRESHOLD = 0.3;
const BOX_THRESHOLD = 0.6;
const UNCLIP_RATIO = 1.5;
/** Cores smaller than this (in detector pixels) are specks. */
const MIN_SIDE = 3;
/** ImageNet's channel means and deviations, which the detector was trained with (B, G, R). */
const MEAN = [0.406, 0.456, 0.485] as const;
const STD = [0.225, 0.224, 0.229] as const;

/** The card as the detector's input: resized (bilinear), normalised, channels first in B, G, R order. */
function detectorInput(card: Canvas, width: number, height: number): Float32Array {
  const out = new Float32Array(3 * width * height);
  const sx = card.width / width;
  const sy = card.height / height;
  for (let y = 0; y < height; y++) {
    const fy = Math.min(card.height - 1, Math.max(0, (y + 0.5) * sy - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(card.height - 1, y0 + 1);
    const wy = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(card.width - 1, Math.max(0, (x + 0.5) * sx - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(card.width - 1, x0 + 1);
      const wx = fx - x0;
      for (let c = 0; c < 3; c++) {
        const at = (xx: number, yy: number) => card.data[(yy * card.width + xx) * 4 + (2 - c)]!;
        const top = at(x0, y0) * (1 - wx) + at(x1, y0) * wx;
        const bottom = at(x0, y1) * (1 - wx) + at(x1, y1) * wx;
        const value = (top * (1 - wy) + bottom * wy) / 255;
        out[c * width * height + y * width + x] = (value - MEAN[c]!) / STD[c]!;
      }
    }
  }
  return out;
}

/** The connected cores of the probability map, as boxes in map pixels with their mean probability. */
function cores(map: Float32Array, width: number, height: number): { box: Box; score: number }[] {
  const label = new Int32Array(width * height).fill(-1);
  const found: { box: Box; score: number }[] = [];
  const stack: number[] = [];
  for (let start = 0; start < map.length; start++) {
    if (label[start] !== -1 || map[start]! <= CORE_THRESHOLD) continue;
    let minX = width;
    let minY = height;
    let maxX = -1;
    let maxY = -1;
    let sum = 0;
    let count = 0;
    label[start] = found.length;
    stack.push(start);
    while (stack.length > 0) {
      const p = stack.pop()!;
      const x = p % width;
      const y = (p - x) / width;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
      sum += map[p]!;
      count += 1;
      for (const q of [
        x > 0 ? p - 1 : -1,
        x < width - 1 ? p + 1 : -1,
        y > 0 ? p - width : -1,
        y < height - 1 ? p + width : -1,
      ])
        if (q >= 0 && label[q] === -1 && map[q]! > CORE_THRESHOLD) {
          label[q] = found.length;
          stack.push(q);
        }
    }
    found.push({
      box: { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 },
      score: sum / count,
    });
  }
  return found;
}

/** The text lines on the card, as boxes on the card's raster, top to bottom. */
export async function detectLines(card: Canvas): Promise<Box[]> {
  const { detector, Tensor } = await textModels();
  const width = DETECT_WIDTH;
  const height = Math.max(32, Math.round((card.height * width) / card.width / 32) * 32);
  const input = new Tensor('float32', detectorInput(card, width, height), [1, 3, height, width]);
  const output = await detector.run({ [detector.inputNames[0]!]: input });
  const map = output[detector.outputNames[0]!]!.data as Float32Array;
  const sx = card.width / width;
  const sy = card.height / height;
  return cores(map, width, height)
    .filter(({ box, score }) => score >= BOX_THRESHOLD && Math.min(box.width, box.height) >= MIN_SIDE)
    .map(({ box }) => {
      const grow = (box.width * box.height * UNCLIP_RATIO) / (2 * (box.width + box.height));
      const x = Math.max(0, (box.x - grow) * sx);
      const y = Math.max(0, (box.y - grow) * sy);
      return {
        x,
        y,
        width: Math.min(card.width, (box.x + box.width + grow) * sx) - x,
        height: Math.min(card.height, (box.y + box.height + grow) * sy) - y,
      };
    })
    .sort((a, b) => a.y - b.y || a.x - b.x);
}
