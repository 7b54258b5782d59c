/**
 * The portrait side of a second-generation card, flat: this maker's layouts place the fields
 * where GB 19104's card has them (name, sex and nationality on one line, birth with 年 月 日,
 * an address of up to three lines, the number along the bottom, the photo on the right), each
 * layout with its own offsets, sizes, tracking and faces, as cards from different batches and
 * printers differ.
 */
import { createCanvas, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import { pick, type Random } from '../../../src/engines/random.js';
import { cardOutline, drawCardStock } from './card-stock.js';
import { registerFieldFonts, type FieldFont } from './fonts.js';
import type { Holder } from './people.js';

/** Pixels of the flat card: 85.6 × 54 mm at about 300 dpi. */
export const FLAT_WIDTH = 1012;
export const FLAT_HEIGHT = 638;

export interface Layout {
  /** Left edge of the labels and of the values, as parts of the card width. */
  labelX: number;
  valueX: number;
  /** Baselines of the name, sex, birth and first address lines, as parts of the height. */
  rows: [number, number, number, number];
  lineGap: number;
  labelSize: number;
  valueSize: number;
  numberSize: number;
  /** Characters on one address line. */
  addressLine: number;
  /** Extra space between characters of a value, in pixels. */
  tracking: number;
  valueFont: FieldFont;
  labelColour: string;
  photo: { x: number; y: number; w: number; h: number };
}

/** Each layout within what a card allows: the photo never overlaps text, the number fits the bottom band. */
export function chooseLayout(random: Random): Layout {
  const jitter = (x: number, by: number) => x + (random() - 0.5) * 2 * by;
  const photoW = jitter(0.29, 0.015);
  return {
    labelX: jitter(0.065, 0.01),
    valueX: jitter(0.175, 0.01),
    rows: [jitter(0.16, 0.012), jitter(0.275, 0.012), jitter(0.39, 0.012), jitter(0.505, 0.012)],
    lineGap: jitter(0.082, 0.006),
    labelSize: jitter(0.034, 0.003),
    valueSize: jitter(0.046, 0.004),
    numberSize: jitter(0.056, 0.004),
    addressLine: pick(random, [11, 11, 12]),
    tracking: jitter(2, 2),
    valueFont: pick(random, ['FC UMing', 'FC MicroHei'] as const),
    labelColour: pick(random, ['#3a7fb5', '#2f86a8', '#4a79a8', '#3b8fb8']),
    photo: { x: jitter(0.63, 0.015), y: jitter(0.1, 0.015), w: photoW, h: (photoW * 1.23 * 85.6) / 54 },
  };
}

function text(ctx: SKRSContext2D, value: string, x: number, y: number, tracking: number): number {
  let at = x;
  for (const ch of value) {
    ctx.fillText(ch, at, y);
    at += ctx.measureText(ch).width + tracking;
  }
  return at;
}

/** The address broken as the card breaks it: full lines of `perLine` characters. */
export function addressLines(address: string, perLine: number): string[] {
  const chars = [...address];
  const lines: string[] = [];
  for (let i = 0; i < chars.length; i += perLine) lines.push(chars.slice(i, i + perLine).join(''));
  return lines;
}

export function drawCard(holder: Holder, portrait: Canvas, layout: Layout, random: Random): Canvas {
  registerFieldFonts();
  const W = FLAT_WIDTH;
  const H = FLAT_HEIGHT;
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  drawCardStock(ctx, W, H, random);
  ctx.save();
  cardOutline(ctx, W, H);
  ctx.clip();
  // The photo is printed into the card: its light background takes the card's ground.
  const { photo } = layout;
  ctx.globalCompositeOperation = 'multiply';
  ctx.drawImage(portrait, photo.x * W, photo.y * H, photo.w * W, photo.h * H);
  ctx.globalCompositeOperation = 'source-over';

  const label = (s: string, x: number, row: number) => {
    ctx.font = `${layout.labelSize * W}px "FC MicroHei"`;
    ctx.fillStyle = layout.labelColour;
    return text(ctx, s, x * W, row * H, layout.labelSize * W * 0.35);
  };
  // Text never runs into the photo: a value too wide for the room before it is set smaller.
  const room = (photo.x - 0.015) * W;
  const valueFont = (widest: string, x: number) => {
    ctx.font = `${layout.valueSize * W}px "${layout.valueFont}"`;
    const width = ctx.measureText(widest).width + layout.tracking * [...widest].length;
    const size = layout.valueSize * W * Math.min(1, (room - x) / width);
    return `${size}px "${layout.valueFont}"`;
  };
  const value = (s: string, x: number, row: number, font = valueFont(s, x)) => {
    ctx.font = font;
    ctx.fillStyle = '#141414';
    return text(ctx, s, x, row * H, layout.tracking);
  };
  const [nameRow, sexRow, birthRow, addressRow] = layout.rows;
  label('姓名', layout.labelX, nameRow);
  value(holder.name, layout.valueX * W, nameRow);
  label('性别', layout.labelX, sexRow);
  value(holder.sex, layout.valueX * W, sexRow);
  const nationLabel = label('民族', layout.valueX + 0.13, sexRow);
  value(holder.nation, nationLabel + layout.valueSize * W * 0.5, sexRow);
  label('出生', layout.labelX, birthRow);
  const [year, month, day] = holder.birth.split('-');
  let at = value(year!, layout.valueX * W, birthRow);
  for (const [part, unit] of [
    [String(Number(month)), '年'],
    [String(Number(day)), '月'],
  ] as const) {
    at = label(unit, at / W + 0.012, birthRow);
    at = value(part, at + W * 0.012, birthRow);
  }
  label('日', at / W + 0.012, birthRow);
  label('住址', layout.labelX, addressRow);
  const lines = addressLines(holder.address, layout.addressLine);
  const addressFont = valueFont(lines[0]!, layout.valueX * W);
  lines.forEach((line, i) => value(line, layout.valueX * W, addressRow + i * layout.lineGap, addressFont));
  const numberRow = 0.86 + (random() - 0.5) * 0.02;
  const numberLabelEnd = label('公民身份号码', layout.labelX, numberRow);
  // The number starts a little after its label and ends before the card's right margin.
  const start = numberLabelEnd + W * (0.03 + random() * 0.03);
  const tracking = W * 0.005;
  let size = layout.numberSize * W;
  ctx.font = `${size}px "FC OCR-B"`;
  const numberRoom = W * 0.94 - start;
  const needed = ctx.measureText(holder.idNumber).width + tracking * 17;
  if (needed > numberRoom) size *= numberRoom / needed;
  ctx.font = `${size}px "FC OCR-B"`;
  ctx.fillStyle = '#101010';
  text(ctx, holder.idNumber, start, numberRow * H, tracking);
  ctx.restore();
  return canvas;
}
