/**
 * The ID-card reader against synthetic cards (clean, photographed, degraded) with the real
 * PP-OCRv4 models: fields read back, the card found in photos, anchoring, the temporary title, an
 * image without a card, aborting a read; and the clean-up rules on their own.
 */
import { describe, expect, it, vi } from 'vitest';
import { canvasOf, type Canvas } from '../../src/engines/canvas.js';
import { checkDigit } from '../../src/engines/idcard/id-number.js';
import { CARD_HEIGHT, CARD_WIDTH, FIELDS, LAYOUT } from '../../src/engines/idcard/layout.js';
import { correctDivisions } from '../../src/engines/idcard/ocr/divisions.js';
import { cleanBirth, cleanName, cleanSex } from '../../src/engines/idcard/ocr/field-text.js';
import { normaliseNumber } from '../../src/engines/idcard/ocr/id-number-read.js';
import { readCard, type CardReading } from '../../src/engines/idcard/ocr/index.js';
import { snapNation } from '../../src/engines/idcard/ocr/nation.js';
import {
  CARD_FONTS,
  makeSpecimen,
  type Degradation,
  type Specimen,
} from '../support/idcard-specimen/index.js';
import type { Quad } from '../../src/engines/idcard/warp.js';

// Some tests read dozens of cards: seconds each on a machine busy with other test
// files, so they get more than the default.
vi.setConfig({ testTimeout: 120_000 });

const READ_TIMEOUT = 60_000;

function exactFields(reading: CardReading, specimen: Specimen): number {
  return FIELDS.filter((field) => reading.fields[field] === specimen.truth[field]).length;
}

function misread(reading: CardReading, specimen: Specimen): string[] {
  return FIELDS.filter((field) => reading.fields[field] !== specimen.truth[field]).map(
    (field) => `${field}: "${reading.fields[field]}" for "${specimen.truth[field]}"`,
  );
}

const cornerError = (found: Quad, truth: Quad) =>
  Math.max(...found.map((corner, i) => Math.hypot(corner.x - truth[i]!.x, corner.y - truth[i]!.y)));

describe('reading clean cards', () => {
  it(
    'reads every field of cards in each typeface, the number, sex and date exactly',
    async () => {
      // One holder per typeface: the other cards of this file are read in typefaces the seeds choose.
      const specimens = CARD_FONTS.map((font, f) => makeSpecimen({ seed: 4100 + 2 * f, font }));
      let exact = 0;
      const wrong: string[] = [];
      for (const specimen of specimens) {
        const reading = await readCard(specimen.canvas);
        expect(reading.labelsFound).toBeGreaterThanOrEqual(5);
        expect(reading.temporary).toBe(false);
        for (const field of ['id_number', 'sex', 'birth'] as const)
          expect(reading.fields[field]).toBe(specimen.truth[field]);
        exact += exactFields(reading, specimen);
        wrong.push(...misread(reading, specimen));
      }
      // The Chinese model misreads a rare character of a name or street now and then (see the
      // reader's notes); beyond one such field in this set the reader has regressed.
      expect(wrong.length, wrong.join('; ')).toBeLessThanOrEqual(1);
      expect(exact).toBeGreaterThanOrEqual(specimens.length * FIELDS.length - 1);
    },
    READ_TIMEOUT,
  );

  it(
    'reads a tight crop of a high-resolution scan, with no background around the card',
    async () => {
      const specimen = makeSpecimen({ seed: 4200 });
      // A 1.7× scan, cropped inside the card's edge: no outline to find, the whole image is the card.
      const scan = resampled(specimen.canvas, 1.7);
      const margin = 12;
      const crop = cropped(scan, margin, margin, scan.width - 2 * margin, scan.height - 2 * margin);
      const reading = await readCard(crop);
      expect(reading.card.width).toBe(CARD_WIDTH);
      expect(reading.card.height).toBe(CARD_HEIGHT);
      if (reading.quad) expect(cornerError(reading.quad, corners(crop))).toBeLessThan(30);
      expect(reading.labelsFound).toBeGreaterThanOrEqual(5);
      expect(reading.fields.id_number).toBe(specimen.truth.id_number);
      expect(reading.fields.birth).toBe(specimen.truth.birth);
      expect(exactFields(reading, specimen), misread(reading, specimen).join('; ')).toBeGreaterThanOrEqual(5);
    },
    READ_TIMEOUT,
  );

  it(
    'anchors on the labels: a card printed 24 px lower and 18 px to the right is read at its place',
    async () => {
      const specimen = makeSpecimen({ seed: 4300 });
      const shifted = canvasOf(CARD_WIDTH, CARD_HEIGHT);
      shifted.data.fill(240);
      for (let y = 0; y < CARD_HEIGHT - 24; y++)
        for (let x = 0; x < CARD_WIDTH - 18; x++)
          for (let c = 0; c < 4; c++)
            shifted.data[((y + 24) * CARD_WIDTH + x + 18) * 4 + c] =
              specimen.canvas.data[(y * CARD_WIDTH + x) * 4 + c]!;
      const reading = await readCard(shifted);
      expect(reading.labelsFound).toBeGreaterThanOrEqual(5);
      // The number's box follows the print, not LAYOUT.
      expect(reading.valueBoxes.id_number.y).toBeGreaterThan(LAYOUT.id_number.valueBox.y + 10);
      expect(reading.fields.id_number).toBe(specimen.truth.id_number);
      expect(reading.fields.sex).toBe(specimen.truth.sex);
      expect(reading.fields.birth).toBe(specimen.truth.birth);
    },
    READ_TIMEOUT,
  );
});

describe('reading photographed and degraded cards', () => {
  const cases: [string, Degradation[]][] = [
    ['a rotated photo on a table', ['photo', 'rotation']],
    ['a photo at an angle', ['perspective']],
    ['a JPEG', ['jpeg']],
    ['a blurred card', ['blur']],
    ['a photocopy', ['photocopy']],
  ];

  it(
    'finds the card, rectifies it and reads it',
    async () => {
      let exact = 0;
      const wrong: string[] = [];
      for (const [index, [what, degradations]] of cases.entries()) {
        let seed = 4400 + 10 * index;
        let specimen = makeSpecimen({ seed, degradations });
        // Blur strong enough to warn about (sigma ≥ 2) is a separate matter; take a readable one.
        while (specimen.truth.warnings.includes('blur'))
          specimen = makeSpecimen({ seed: ++seed, degradations });
        const reading = await readCard(specimen.canvas);
        const framed = degradations.some((d) => d === 'photo' || d === 'perspective');
        if (framed) {
          expect(reading.quad, what).not.toBeNull();
          expect(cornerError(reading.quad!, specimen.quad!), what).toBeLessThan(1.5);
        }
        expect(reading.labelsFound, what).toBeGreaterThanOrEqual(4);
        expect(reading.fields.id_number, what).toBe(specimen.truth.id_number);
        exact += exactFields(reading, specimen);
        wrong.push(...misread(reading, specimen).map((m) => `${what}: ${m}`));
      }
      expect(exact, wrong.join('; ')).toBeGreaterThanOrEqual(Math.ceil(0.9 * cases.length * FIELDS.length));
    },
    READ_TIMEOUT,
  );

  it(
    'reads a card photographed on its side or upside down, and finds it in the photo as taken',
    async () => {
      // Seeds whose photo is turned a quarter, a half and three quarters: the card's top edge
      // runs down, left and up the image.
      const directions = new Set<string>();
      for (const seed of [4601, 4604, 4600]) {
        const specimen = makeSpecimen({ seed, degradations: ['photo', 'turned'] });
        const [tl, tr] = specimen.quad!;
        const dx = tr.x - tl.x;
        const dy = tr.y - tl.y;
        directions.add(Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? 'right' : 'left') : dy > 0 ? 'down' : 'up');
        const reading = await readCard(specimen.canvas);
        expect(reading.photo.width * reading.photo.height).toBe(
          specimen.canvas.width * specimen.canvas.height,
        );
        expect(reading.labelsFound, `seed ${seed}`).toBeGreaterThanOrEqual(4);
        expect(reading.fields.id_number, `seed ${seed}`).toBe(specimen.truth.id_number);
        expect(exactFields(reading, specimen), misread(reading, specimen).join('; ')).toBeGreaterThanOrEqual(
          5,
        );
      }
      expect([...directions].sort()).toEqual(['down', 'left', 'up']);
    },
    READ_TIMEOUT,
  );

  it(
    "reads a temporary card's title",
    async () => {
      const specimen = makeSpecimen({ seed: 4500, degradations: ['temporary'] });
      const reading = await readCard(specimen.canvas);
      expect(reading.temporary).toBe(true);
      expect(reading.fields.id_number).toBe(specimen.truth.id_number);
    },
    READ_TIMEOUT,
  );
});

describe('images without a card, and aborting', () => {
  it(
    'finds no labels and reads nothing in a picture with no card in it',
    async () => {
      const picture = canvasOf(1200, 900);
      let state = 7;
      const random = () => (state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32;
      for (let y = 0; y < picture.height; y++)
        for (let x = 0; x < picture.width; x++) {
          const o = (y * picture.width + x) * 4;
          picture.data[o] = 90 + x / 12 + 30 * random();
          picture.data[o + 1] = 120 + 40 * Math.sin(y / 60) + 30 * random();
          picture.data[o + 2] = 150 - y / 10;
          picture.data[o + 3] = 255;
        }
      // A light card-shaped panel with no print on it.
      for (let y = 250; y < 250 + 380; y++)
        for (let x = 300; x < 300 + 600; x++)
          picture.data.fill(235, (y * picture.width + x) * 4, (y * picture.width + x) * 4 + 3);
      const reading = await readCard(picture);
      expect(reading.labelsFound).toBe(0);
      for (const field of FIELDS) {
        expect(reading.fields[field]).toBe('');
        expect(reading.confidence[field]).toBe(0);
      }
      expect(reading.temporary).toBe(false);
    },
    READ_TIMEOUT,
  );

  it('refuses to start with an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      readCard(makeSpecimen({ seed: 4600 }).canvas, { signal: controller.signal }),
    ).rejects.toThrow(/abort/i);
  });

  it(
    'stops a read in progress at the next line it would recognise',
    async () => {
      const card = makeSpecimen({ seed: 4601 }).canvas;
      const controller = new AbortController();
      const read = readCard(card, { signal: controller.signal });
      setTimeout(() => controller.abort(), 20);
      await expect(read).rejects.toThrow(/abort/i);
    },
    READ_TIMEOUT,
  );
});

describe('cleaning what was read', () => {
  const valid = (first17: string) => first17 + checkDigit(first17);
  const number = valid('11010519900307123');

  it('maps look-alike letters to digits and keeps the number otherwise as read', () => {
    const letters = number.replace(/0/g, 'O').replace(/1/g, 'l');
    expect(normaliseNumber(letters)).toBe(number);
    expect(normaliseNumber(`${number.slice(0, 6)} ${number.slice(6)}`)).toBe(number);
  });

  it('never changes a digit to make the check character match', () => {
    // One misread digit of the birth date, one wrong check character: both stay as read.
    const misread = number.slice(0, 10) + '8' + number.slice(11);
    expect(normaliseNumber(misread)).toBe(misread);
    const altered = number.slice(0, 17) + '4';
    expect(normaliseNumber(altered)).toBe(altered);
  });

  it('snaps the nation to the list of the 56 groups', () => {
    expect(snapNation('维吾')?.nation).toBe('维吾尔');
    expect(snapNation('蒙古族')).toEqual({ nation: '蒙古', distance: 0 });
    expect(snapNation('民族满')?.nation).toBe('满');
    expect(snapNation('')).toBeUndefined();
  });

  it('corrects the division names that open an address, and only those', () => {
    expect(correctDivisions('云南省曲靖市罗平具陈沟镇老桥村37号')).toBe('云南省曲靖市罗平县陈沟镇老桥村37号');
    expect(correctDivisions('北京市朝阳医建国路88号')).toBe('北京市朝阳区建国路88号');
    expect(correctDivisions('北京市朝阳区建国路88号')).toBe('北京市朝阳区建国路88号');
    expect(correctDivisions('建国路88号')).toBe('建国路88号');
  });

  it('cleans names, sex and dates to their printed forms', () => {
    expect(cleanName('名 欧 阳 雪')).toBe('欧阳雪');
    expect(cleanName('阿依古丽.买买提')).toBe('阿依古丽·买买提');
    expect(cleanSex('性别 女')).toBe('女');
    expect(cleanSex('男女')).toBe('');
    expect(cleanBirth('1990 年 1 月 8 日')).toBe('1990-01-08');
    expect(cleanBirth('1990 年 工 月 8 日')).toBe('1990-01-08');
    expect(cleanBirth('1990 8')).toBe('');
    expect(cleanBirth('1990 2 30')).toBe('');
  });
});

function corners(canvas: Canvas): Quad {
  return [
    { x: 0, y: 0 },
    { x: canvas.width, y: 0 },
    { x: canvas.width, y: canvas.height },
    { x: 0, y: canvas.height },
  ];
}

function cropped(source: Canvas, x0: number, y0: number, width: number, height: number): Canvas {
  const out = canvasOf(width, height);
  for (let y = 0; y < height; y++)
    out.data.set(
      source.data.subarray(((y + y0) * source.width + x0) * 4, ((y + y0) * source.width + x0 + width) * 4),
      y * width * 4,
    );
  return out;
}

/** Bilinear resampling by `factor`, as a scanner at another resolution would give. */
function resampled(source: Canvas, factor: number): Canvas {
  const out = canvasOf(Math.round(source.width * factor), Math.round(source.height * factor));
  for (let y = 0; y < out.height; y++)
    for (let x = 0; x < out.width; x++) {
      const fx = Math.min(source.width - 1, Math.max(0, (x + 0.5) / factor - 0.5));
      const fy = Math.min(source.height - 1, Math.max(0, (y + 0.5) / factor - 0.5));
      const x0 = Math.floor(fx);
      const y0 = Math.floor(fy);
      const x1 = Math.min(source.width - 1, x0 + 1);
      const y1 = Math.min(source.height - 1, y0 + 1);
      for (let c = 0; c < 4; c++) {
        const at = (px: number, py: number) => source.data[(py * source.width + px) * 4 + c]!;
        const top = at(x0, y0) + (at(x1, y0) - at(x0, y0)) * (fx - x0);
        const bottom = at(x0, y1) + (at(x1, y1) - at(x0, y1)) * (fx - x0);
        out.data[(y * out.width + x) * 4 + c] = Math.round(top + (bottom - top) * (fy - y0));
      }
    }
  return out;
}
