/**
 * Another printer's card: the same fields as the resident card, laid out by a layout of its own
 * (shifted and scaled as a whole, rows and columns a little off, the photo moved and sized
 * independently of the text), printed in the faces installed on the machine with faux bold,
 * condensed or spaced type, and the number in one of several Latin faces. The card is drawn at
 * its own resolution, 820 to 1280 pixels wide.
 */
import { createCanvas, GlobalFonts, type Canvas as SkiaCanvas } from '@napi-rs/canvas';
import { pick, type Random } from '../../../src/engines/random.js';
import type { Box } from '../../../src/engines/idcard/layout.js';
import type { Canvas } from '../../../src/engines/canvas.js';
import type { Person } from '../idcard-specimen/people.js';
import { addGrain, paintPaper } from './paper.js';

const HEI = '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc';
const HEI_FAMILY = 'Other Print Hei';
const NUMBER_FACES = ['DejaVu Sans Mono', 'DejaVu Sans', 'DejaVu Sans Condensed'] as const;

let registered = false;
function heiFamily(): string {
  if (!registered) {
    if (GlobalFonts.registerFromPath(HEI, HEI_FAMILY) == null) throw new Error(`cannot load ${HEI}`);
    registered = true;
  }
  return `"${HEI_FAMILY}"`;
}

export interface CardDrawing {
  card: SkiaCanvas;
  /** The photo's place on the card, in pixels of the 1000-wide canonical raster. */
  photo: Box;
}

export interface CardChoices {
  /** The photo printed on the left of the card and the text on the right. */
  photoOnLeft?: boolean;
  /** The holder's photo, mirrored left to right. */
  mirroredPhoto?: boolean;
}

const between = (random: Random, low: number, high: number) => low + (high - low) * random();

/** Lines of at most `perLine` characters, filled evenly, as a card printer wraps an address. */
function wrap(text: string, perLine: number): string[] {
  const chars = [...text];
  const count = Math.ceil(chars.length / perLine);
  const size = Math.ceil(chars.length / count);
  return Array.from({ length: count }, (_, i) => chars.slice(i * size, (i + 1) * size).join(''));
}

function canvasImage(picture: Canvas): SkiaCanvas {
  const skia = createCanvas(picture.width, picture.height);
  const ctx = skia.getContext('2d');
  const image = ctx.createImageData(picture.width, picture.height);
  image.data.set(picture.data);
  ctx.putImageData(image, 0, 0);
  return skia;
}

export function drawOtherCard(
  person: Person,
  portrait: Canvas,
  random: Random,
  choices: CardChoices = {},
): CardDrawing {
  const pixelsWide = Math.round(between(random, 820, 1280));
  const unit = pixelsWide / 1000;
  const card = createCanvas(pixelsWide, Math.round(631 * unit));
  const ctx = card.getContext('2d');
  paintPaper(ctx, card.width, card.height, random);
  ctx.scale(unit, unit);

  // The layout in canonical units: a scale and shift of the whole text block.
  const s = between(random, 0.93, 1.06);
  const ox = between(random, -22, 22);
  const oy = between(random, -18, 18);
  const X = (x: number) => ox + s * x;
  const Y = (y: number) => oy + s * y;

  const photoWidth = between(random, 270, 330);
  const photoHeight = photoWidth * (400 / 310) * between(random, 0.97, 1.03);
  const photoLeft = choices.photoOnLeft ?? false;
  const photo: Box = {
    x: photoLeft ? between(random, 25, 60) : 1000 - between(random, 28, 64) - photoWidth,
    y: between(random, 50, 100),
    width: photoWidth,
    height: photoHeight,
  };
  // The text moves right of a photo on the left.
  const textShift = photoLeft ? photo.x + photo.width - 25 : 0;
  const TX = (x: number) => textShift + X(x);

  ctx.save();
  ctx.globalCompositeOperation = random() < 0.6 ? 'multiply' : 'source-over';
  ctx.globalAlpha = between(random, 0.9, 1);
  ctx.translate(photo.x + (choices.mirroredPhoto ? photo.width : 0), photo.y);
  ctx.scale(choices.mirroredPhoto ? -1 : 1, 1);
  ctx.drawImage(canvasImage(portrait), 0, 0, photo.width, photo.height);
  ctx.restore();

  const hei = heiFamily();
  const labelInk = `rgb(${Math.round(between(random, 20, 70))},${Math.round(between(random, 80, 120))},${Math.round(between(random, 150, 190))})`;
  const ink = Math.round(between(random, 5, 35));
  const valueInk = `rgb(${ink},${ink},${ink + 4})`;
  const labelSize = between(random, 25, 30) * s;
  const valueSize = between(random, 34, 40) * s;
  const bold = random() < 0.5 ? between(random, 0.4, 1.1) : 0;
  const condensed = between(random, 0.92, 1.03);
  const spacing = between(random, 0, 5);

  const label = (text: string, x: number, y: number) => {
    ctx.font = `${labelSize}px ${hei}`;
    ctx.fillStyle = labelInk;
    ctx.letterSpacing = `${between(random, 0, 3)}px`;
    ctx.textBaseline = 'middle';
    ctx.fillText(text, TX(x), Y(y));
  };
  const value = (text: string, x: number, y: number, size = valueSize) => {
    ctx.save();
    ctx.font = `${size}px ${hei}`;
    ctx.fillStyle = valueInk;
    ctx.strokeStyle = valueInk;
    ctx.lineWidth = bold;
    ctx.letterSpacing = `${spacing}px`;
    ctx.textBaseline = 'middle';
    ctx.translate(TX(x), Y(y));
    ctx.scale(condensed, 1);
    ctx.fillText(text, 0, 0);
    if (bold > 0) ctx.strokeText(text, 0, 0);
    ctx.restore();
    return ctx.measureText(text).width * condensed;
  };
  const jitter = () => between(random, -4, 4);
  const valueX = 180 + between(random, -10, 12);

  label('姓名', 60, 108 + jitter());
  value(person.name, valueX, 108 + jitter());
  const row2 = 188 + jitter();
  label('性别', 60, row2);
  value(person.sex, valueX, row2);
  const nationX = 320 + between(random, -8, 10);
  label('民族', nationX, row2);
  value(person.nation, nationX + 110 + between(random, -6, 8), row2);

  const row3 = 268 + jitter();
  label('出生', 60, row3);
  const [year, month, day] = person.birth.split('-').map(Number) as [number, number, number];
  let at = valueX;
  for (const [number, unit] of [
    [year, '年'],
    [month, '月'],
    [day, '日'],
  ] as const) {
    ctx.font = `${valueSize}px ${hei}`;
    at += value(String(number), at, row3) / s + 10;
    ctx.font = `${labelSize}px ${hei}`;
    label(unit, at, row3);
    at += ctx.measureText(unit).width / s + 12;
  }

  const row4 = 348 + jitter();
  label('住址', 60, row4);
  // The address column ends short of the photo; a smaller type when three lines would not hold it.
  const columnEnd = photoLeft ? 1000 - 30 - textShift : (photo.x - ox) / s - 16;
  let size = valueSize;
  let lines: string[] = [];
  for (; size > 24; size -= 1) {
    ctx.font = `${size}px ${hei}`;
    ctx.letterSpacing = `${spacing}px`;
    const perChar = (ctx.measureText('国'.repeat(10)).width / 10) * condensed;
    const perLine = Math.floor(((columnEnd - valueX) * s) / perChar);
    lines = wrap(person.address, perLine);
    if (lines.length <= 3) break;
  }
  const pitch = between(random, 46, 54);
  lines.forEach((line, i) => value(line, valueX, row4 + i * pitch, size));

  const row6 = 548 + between(random, -6, 6);
  label('公民身份号码', 60, row6);
  ctx.save();
  const face = pick(random, NUMBER_FACES);
  ctx.font = `${between(random, 34, 40) * s}px "${face}"`;
  ctx.letterSpacing = `${face === 'DejaVu Sans Mono' ? between(random, 6, 12) : between(random, 8, 14)}px`;
  ctx.fillStyle = valueInk;
  ctx.textBaseline = 'middle';
  ctx.fillText(person.idNumber, TX(320 + between(random, -14, 14)), Y(row6));
  ctx.restore();

  // Skia's putImageData follows the transform, so the grain is laid on in device pixels.
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  const pixels = ctx.getImageData(0, 0, card.width, card.height);
  addGrain(pixels.data, between(random, 3, 8), random);
  ctx.putImageData(pixels, 0, 0);
  return { card, photo };
}
