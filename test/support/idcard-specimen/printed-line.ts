/**
 * A line printed as on a card (36 px characters, black on white) and cut out with a margin, as
 * the reader cuts a value's line: for checks of what the reader does with a line's print.
 */
import { createCanvas } from '@napi-rs/canvas';
import type { LineCrop } from '../../../src/engines/idcard/ocr/value-crops.js';
import { cardFont } from './fonts.js';

export function printedLine(text: string, family: string): LineCrop {
  const width = 40 * text.length + 24;
  const canvas = createCanvas(width, 52);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, 52);
  ctx.fillStyle = '#000';
  ctx.font = `36px ${cardFont(family)}`;
  ctx.letterSpacing = '3px';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, 8, 26);
  const rgba = ctx.getImageData(0, 0, width, 52).data;
  const data = new Uint8Array(width * 52);
  for (let i = 0; i < data.length; i++) data[i] = rgba[4 * i + 1]!;
  return {
    raster: { width, height: 52, data },
    tones: { paper: 255, ink: 0 },
    box: { x: 0, y: 0, width, height: 52 },
  };
}
