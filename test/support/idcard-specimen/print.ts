/**
 * How one printer lays the text of a card down: where each value starts, type sizes, spacing and
 * inks, varied a little per seed (a few pixels of offset, a few per cent of scale). The card
 * renderer prints with it, and a forger's patch reuses it with small differences.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import { hashOf, seeded } from '../../../src/engines/random.js';
import { LAYOUT, type Box, type Field } from '../../../src/engines/idcard/layout.js';
import { NUMBER_FONT } from './fonts.js';

export interface Print {
  dx: number;
  dy: number;
  scale: number;
  /** Font size of the values, px. */
  valueSize: number;
  /** Extra space between the values' characters, px. */
  valueSpacing: number;
  labelSize: number;
  numberSize: number;
  /** Character pitch of the number line, px. */
  numberPitch: number;
  /** CSS font family list of the number line. */
  numberFont: string;
  labelColour: string;
  valueColour: string;
  portraitVariant: number;
}

const STANDARD: Print = {
  dx: 0,
  dy: 0,
  scale: 1,
  valueSize: 38,
  valueSpacing: 4,
  labelSize: 27,
  numberSize: 38,
  numberPitch: 33,
  numberFont: NUMBER_FONT,
  labelColour: 'rgb(38,104,168)',
  valueColour: 'rgb(16,16,18)',
  portraitVariant: 0,
};

/** The standard print without a seed; with one, a printer's own offsets, scale and inks. */
export function printOf(seed: number | undefined): Print {
  if (seed === undefined) return STANDARD;
  const random = seeded(hashOf('card print', seed));
  const scale = 0.97 + 0.06 * random();
  const blue = Math.round(150 + 30 * random());
  const ink = () => Math.round(10 + 14 * random());
  return {
    dx: Math.round(-4 + 8 * random()),
    dy: Math.round(-4 + 8 * random()),
    scale,
    valueSize: Math.round(37 * scale + 2 * random()),
    valueSpacing: Math.round(3 + 2 * random()),
    labelSize: Math.round(27 * scale),
    numberSize: Math.round(38 * scale + 2 * random()),
    numberPitch: 32 + 2 * random(),
    numberFont: NUMBER_FONT,
    labelColour: `rgb(${Math.round(30 + 20 * random())},${Math.round(blue * 0.66)},${blue})`,
    valueColour: `rgb(${ink()},${ink()},${ink()})`,
    portraitVariant: Math.floor(random() * 8),
  };
}

/** A box of the layout moved by the printer's offset. */
export const shifted = (print: Print, box: Box): Box => ({
  ...box,
  x: box.x + print.dx,
  y: box.y + print.dy,
});

/** Distance between the address lines, px. */
export const addressPitch = (print: Print) => Math.round(print.valueSize * 1.45);

/** Where line `line` of a value starts: its left edge and vertical centre. */
export function valueAnchor(print: Print, field: Field, line = 0): { x: number; y: number } {
  const box = shifted(print, LAYOUT[field].valueBox);
  const y =
    LAYOUT[field].lines === 1 ? box.y + box.height / 2 : box.y + box.height / 6 + line * addressPitch(print);
  // The number line starts a little in from its box, as the label before it is long.
  return { x: field === 'id_number' ? box.x + 12 : box.x, y };
}

export function labelType(ctx: SKRSContext2D, print: Print, family: string): void {
  ctx.font = `${print.labelSize}px ${family}`;
  ctx.letterSpacing = '0px';
  ctx.fillStyle = print.labelColour;
  ctx.textBaseline = 'middle';
}

export function valueType(ctx: SKRSContext2D, print: Print, family: string): void {
  ctx.font = `${print.valueSize}px ${family}`;
  ctx.letterSpacing = `${print.valueSpacing}px`;
  ctx.fillStyle = print.valueColour;
  ctx.textBaseline = 'middle';
}

const ADDRESS_SPACING = 1;

/** Address type: value type set closer, so that eleven characters fill the value box. */
export function addressType(ctx: SKRSContext2D, print: Print, family: string): void {
  valueType(ctx, print, family);
  ctx.letterSpacing = `${ADDRESS_SPACING}px`;
}

/** Runs of digits and Latin letters stay whole; every other character stands alone. */
const tokensOf = (text: string) => text.match(/[0-9A-Za-z]+|./gu) ?? [];

/** Greedy lines no wider than `limit`, breaking between the given pieces. */
function wrap(ctx: SKRSContext2D, pieces: readonly string[], limit: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const piece of pieces) {
    if (line !== '' && ctx.measureText(line + piece).width > limit) {
      lines.push(line);
      line = '';
    }
    line += piece;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/**
 * The address in at most three lines of about eleven characters (in address type), numbers kept
 * whole where that still fits in three lines.
 */
export function addressLines(ctx: SKRSContext2D, address: string, print: Print): string[] {
  const limit = Math.max(LAYOUT.address.valueBox.width, 11 * (print.valueSize + ADDRESS_SPACING)) + 1;
  const whole = wrap(ctx, tokensOf(address), limit);
  return whole.length <= LAYOUT.address.lines ? whole : wrap(ctx, [...address], limit);
}

/** The 18 characters of the number, one per pitch, so every printer's line is equally wide. */
export function printNumber(ctx: SKRSContext2D, print: Print, number: string): void {
  ctx.font = `${print.numberSize}px ${print.numberFont}`;
  ctx.letterSpacing = '0px';
  ctx.fillStyle = print.valueColour;
  ctx.textBaseline = 'middle';
  const { x, y } = valueAnchor(print, 'id_number');
  [...number].forEach((character, i) => ctx.fillText(character, x + i * print.numberPitch, y));
}
