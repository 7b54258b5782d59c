/**
 * A forger's patch: one value (the name, the address or the number) covered with a piece of card
 * of a slightly different tone carrying another value, typed a little differently, with a seam
 * where the patch meets the card. What the image then shows is the patch's value.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import type { Canvas } from '../../../src/engines/canvas.js';
import { pick, type Random } from '../../../src/engines/random.js';
import { checkDigit } from '../../../src/engines/idcard/id-number.js';
import { addressIn } from './address.js';
import { CARD_FONTS, cardFont } from './fonts.js';
import { fictionalPerson, type Person } from './people.js';
import {
  addressLines,
  addressPitch,
  addressType,
  printNumber,
  valueAnchor,
  valueType,
  type Print,
} from './print.js';
import { pixelsOf, surfaceOf } from './surface.js';

export type PastedField = 'name' | 'address' | 'id_number';

export interface Paste {
  field: PastedField;
  /** The value the patch shows. */
  value: string;
  card: Canvas;
}

/** Another value for the field, never the person's own. */
function forgedValue(random: Random, person: Person, field: PastedField): string {
  for (;;) {
    let value: string;
    if (field === 'name') value = fictionalPerson(Math.floor(random() * 2 ** 31)).name;
    else if (field === 'address') value = addressIn(random, person.idNumber.slice(0, 6));
    else {
      // Same region and sex, another year of birth and sequence: a number that passes the rules.
      const year =
        Number(person.birth.slice(0, 4)) + (random() < 0.5 ? -1 : 1) * (1 + Math.floor(random() * 6));
      const sequence = Math.floor(random() * 50) * 20 + Number(person.idNumber[16]);
      // 29 February only comes back in a leap year.
      const monthDay = person.birth.slice(5).replace('-', '').replace('0229', '0228');
      const first17 = person.idNumber.slice(0, 6) + year + monthDay + String(sequence).padStart(3, '0');
      value = first17 + checkDigit(first17);
    }
    if (value !== (field === 'id_number' ? person.idNumber : person[field])) return value;
  }
}

/** The mean colour of a rectangle of the card. */
function meanTone(
  card: Canvas,
  x: number,
  y: number,
  width: number,
  height: number,
): [number, number, number] {
  const sum = [0, 0, 0];
  let count = 0;
  for (let j = Math.max(0, y); j < Math.min(card.height, y + height); j += 2)
    for (let i = Math.max(0, x); i < Math.min(card.width, x + width); i += 2) {
      const o = (j * card.width + i) * 4;
      for (let c = 0; c < 3; c++) sum[c]! += card.data[o + c]!;
      count++;
    }
  return sum.map((s) => s / Math.max(1, count)) as [number, number, number];
}

interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The rectangle a field's value occupies in a print, with a margin. */
function valueArea(
  ctx: SKRSContext2D,
  print: Print,
  family: string,
  field: PastedField,
  value: string,
): Area {
  const { x, y } = valueAnchor(print, field);
  if (field === 'id_number')
    return {
      x: x - 8,
      y: y - print.numberSize * 0.75,
      width: 18 * print.numberPitch + 14,
      height: print.numberSize * 1.5,
    };
  const top = y - print.valueSize * 0.8;
  if (field === 'name') {
    valueType(ctx, print, family);
    return { x: x - 8, y: top, width: ctx.measureText(value).width + 18, height: print.valueSize * 1.6 };
  }
  addressType(ctx, print, family);
  const lines = addressLines(ctx, value, print);
  return {
    x: x - 8,
    y: top,
    width: Math.max(...lines.map((line) => ctx.measureText(line).width)) + 18,
    height: (lines.length - 1) * addressPitch(print) + print.valueSize * 1.6,
  };
}

/** The smallest whole-pixel rectangle holding both. */
function union(a: Area, b: Area): Area {
  const x = Math.floor(Math.min(a.x, b.x));
  const y = Math.floor(Math.min(a.y, b.y));
  return {
    x,
    y,
    width: Math.ceil(Math.max(a.x + a.width, b.x + b.width)) - x,
    height: Math.ceil(Math.max(a.y + a.height, b.y + b.height)) - y,
  };
}

/** The forged value's print: a size off, other spacing, a slightly different ink, nudged. */
function forgedPrint(print: Print, random: Random): Print {
  const ink = (low: number) => Math.round(low + 20 * random());
  return {
    ...print,
    dx: print.dx + Math.round((random() - 0.5) * 6),
    dy: print.dy + Math.round((random() - 0.5) * 6),
    valueSize: print.valueSize + pick(random, [-3, -2, 2, 3]),
    valueSpacing: print.valueSpacing + pick(random, [-2, 2]),
    numberSize: print.numberSize + pick(random, [-3, -2, 2]),
    numberPitch: print.numberPitch - 0.5 - random(),
    numberFont: cardFont('WenQuanYi Zen Hei Mono'),
    valueColour: `rgb(${ink(35)},${ink(35)},${ink(40)})`,
  };
}

export function pasteOver(card: Canvas, person: Person, print: Print, font: string, random: Random): Paste {
  const field = pick(random, ['name', 'address', 'id_number'] as const);
  const value = forgedValue(random, person, field);
  const forged = forgedPrint(print, random);
  const family = cardFont(font);
  const otherFamily = cardFont(
    pick(
      random,
      CARD_FONTS.filter((f) => f !== font),
    ),
  );
  const drawn = surfaceOf(card);
  const { ctx } = drawn;
  const original = field === 'id_number' ? person.idNumber : person[field];
  const { x, y, width, height } = union(
    valueArea(ctx, print, family, field, original),
    valueArea(ctx, forged, otherFamily, field, value),
  );

  // The patch: flat, a few levels off the card's tone, with a seam along its edge.
  const tone = meanTone(card, x, y, width, height);
  const shift = (random() < 0.5 ? -1 : 1) * (7 + 8 * random());
  const tint = (random() - 0.5) * 10;
  const rgb = [tone[0] + shift + tint, tone[1] + shift, tone[2] + shift - tint].map((v) =>
    Math.round(Math.min(255, v)),
  );
  ctx.fillStyle = `rgb(${rgb.join(',')})`;
  ctx.fillRect(x, y, width, height);
  ctx.strokeStyle = `rgba(70,70,70,${0.25 + 0.2 * random()})`;
  ctx.lineWidth = 1;
  ctx.strokeRect(x + 0.5, y + 0.5, width - 1, height - 1);

  // The forged value, in the other face (the number in the collection's monospaced digits).
  if (field === 'id_number') printNumber(ctx, forged, value);
  else {
    if (field === 'name') valueType(ctx, forged, otherFamily);
    else addressType(ctx, forged, otherFamily);
    const lines = field === 'name' ? [value] : addressLines(ctx, value, forged);
    lines.forEach((line, i) => {
      const anchor = valueAnchor(forged, field, i);
      ctx.fillText(line, anchor.x, anchor.y);
    });
  }
  return { field, value, card: pixelsOf(drawn) };
}
