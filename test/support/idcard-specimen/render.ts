/**
 * The portrait side of a resident identity card on the canonical 1000×631 raster: card stock,
 * labels in the pre-print's blue, the holder's values in black, the photograph, the number line.
 * Printers differ a little (see print.ts); the reader must find the fields anyway.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import type { Canvas } from '../../../src/engines/canvas.js';
import { hashOf, seeded } from '../../../src/engines/random.js';
import {
  CARD_HEIGHT,
  CARD_WIDTH,
  LAYOUT,
  PORTRAIT_BOX,
  TEMPORARY_TITLE,
  TEMPORARY_TITLE_BOX,
} from '../../../src/engines/idcard/layout.js';
import { paintCardStock } from './card-background.js';
import { CARD_FONTS, cardFont } from './fonts.js';
import type { Person } from './people.js';
import { drawPortrait } from './portrait.js';
import {
  addressLines,
  addressType,
  labelType,
  printNumber,
  printOf,
  shifted,
  valueAnchor,
  valueType,
  type Print,
} from './print.js';
import { pixelsOf, surface, surfaceOf } from './surface.js';

export interface CardOptions {
  /** One of CARD_FONTS; the first by default. */
  font?: string;
  /** Prints the title of a temporary card. */
  temporary?: boolean;
  /** Chooses the printer's offsets, scale and inks and the photograph; the standard print when absent. */
  seed?: number;
}

/**
 * `1990 年 1 月 8 日`: the numbers in value type; 年, 月 and 日 pre-printed in label type after
 * slots as wide as the year and as two digits, so one- and two-digit months line up.
 */
function printBirth(ctx: SKRSContext2D, print: Print, family: string, birth: string): void {
  const [year, month, day] = birth.split('-').map(Number) as [number, number, number];
  const { x, y } = valueAnchor(print, 'birth');
  const gap = print.valueSize * 0.3;
  labelType(ctx, print, family);
  const unitWidth = ctx.measureText('年').width;
  valueType(ctx, print, family);
  const yearWidth = ctx.measureText(String(year)).width;
  const slot = ctx.measureText('00').width;
  let at = x;
  ctx.fillText(String(year), at, y);
  at += yearWidth + gap;
  for (const [unit, number] of [
    ['年', month],
    ['月', day],
  ] as const) {
    labelType(ctx, print, family);
    ctx.fillText(unit, at, y);
    at += unitWidth + gap;
    valueType(ctx, print, family);
    const width = ctx.measureText(String(number)).width;
    ctx.fillText(String(number), at + (slot - width) / 2, y);
    at += slot + gap;
  }
  labelType(ctx, print, family);
  ctx.fillText('日', at, y);
}

export function renderCard(person: Person, options: CardOptions = {}): Canvas {
  const family = cardFont(options.font ?? CARD_FONTS[0]);
  const temporary = options.temporary ?? false;
  const print = printOf(options.seed);
  const drawn = surface(CARD_WIDTH, CARD_HEIGHT);
  const { ctx } = drawn;
  paintCardStock(ctx, seeded(hashOf('card stock', options.seed ?? 0)), temporary);

  // The photograph is printed over the stock, whose pattern shows through its light background.
  const photo = surfaceOf(drawPortrait(person.portraitSeed, print.portraitVariant));
  ctx.globalCompositeOperation = 'multiply';
  ctx.drawImage(photo.skia, PORTRAIT_BOX.x + print.dx, PORTRAIT_BOX.y + print.dy);
  ctx.globalCompositeOperation = 'source-over';

  labelType(ctx, print, family);
  for (const place of Object.values(LAYOUT)) {
    const box = shifted(print, place.labelBox);
    ctx.fillText(place.label, box.x, box.y + box.height / 2);
  }

  valueType(ctx, print, family);
  for (const field of ['name', 'sex', 'nation'] as const) {
    const { x, y } = valueAnchor(print, field);
    ctx.fillText(person[field], x, y);
  }
  addressType(ctx, print, family);
  addressLines(ctx, person.address, print).forEach((line, i) => {
    const { x, y } = valueAnchor(print, 'address', i);
    ctx.fillText(line, x, y);
  });
  printBirth(ctx, print, family, person.birth);
  printNumber(ctx, print, person.idNumber);

  if (temporary) {
    const box = shifted(print, TEMPORARY_TITLE_BOX);
    ctx.font = `${Math.round(40 * print.scale)}px ${family}`;
    ctx.fillStyle = 'rgb(176,48,44)';
    ctx.letterSpacing = '6px';
    ctx.fillText(TEMPORARY_TITLE, box.x, box.y + box.height / 2);
  }
  return pixelsOf(drawn);
}
