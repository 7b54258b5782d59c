/**
 * The synthetic ID cards: fictional holders whose numbers pass the rules, portraits that keep a
 * person across photographs, the printed card read back by the real Tesseract, and specimens
 * whose every degradation leaves a mark that can be measured.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Canvas } from '../../src/engines/canvas.js';
import { decodeImage, encodePng } from '../../src/engines/image-codec.js';
import { parseIdNumber } from '../../src/engines/idcard/id-number.js';
import {
  CARD_HEIGHT,
  CARD_WIDTH,
  LAYOUT,
  TEMPORARY_TITLE_BOX,
  type Box,
} from '../../src/engines/idcard/layout.js';
import { NATIONS } from '../../src/engines/idcard/nations.js';
import {
  CARD_FONTS,
  drawPortrait,
  fictionalPerson,
  makeSpecimen,
  renderCard,
  type Degradation,
  type Specimen,
} from '../support/idcard-specimen/index.js';
import { divisionPrefix } from '../support/idcard-specimen/address.js';
import { cardFont } from '../support/idcard-specimen/fonts.js';
import { photograph, PHOTO_HEIGHT, PHOTO_WIDTH } from '../support/idcard-specimen/photo.js';
import { addressLines, addressType, printOf } from '../support/idcard-specimen/print.js';
import { surface } from '../support/idcard-specimen/surface.js';
import { seeded } from '../../src/engines/random.js';
import { homography, project, rectangle, type Quad } from '../../src/engines/idcard/warp.js';

const run = promisify(execFile);

const luma = (c: Canvas, i: number) =>
  0.299 * c.data[i * 4]! + 0.587 * c.data[i * 4 + 1]! + 0.114 * c.data[i * 4 + 2]!;

function crop(c: Canvas, box: Box, margin = 0): Canvas {
  const x0 = Math.max(0, box.x - margin);
  const y0 = Math.max(0, box.y - margin);
  const width = Math.min(c.width - x0, box.width + 2 * margin);
  const height = Math.min(c.height - y0, box.height + 2 * margin);
  const out = { width, height, data: new Uint8Array(width * height * 4) };
  for (let y = 0; y < height; y++)
    out.data.set(
      c.data.subarray(((y0 + y) * c.width + x0) * 4, ((y0 + y) * c.width + x0 + width) * 4),
      y * width * 4,
    );
  return out;
}

const meanLuma = (c: Canvas) => {
  let sum = 0;
  for (let i = 0; i < c.width * c.height; i++) sum += luma(c, i);
  return sum / (c.width * c.height);
};

/** Variance of the Laplacian of brightness: high for sharp detail, low when blurred. */
function sharpness(c: Canvas): number {
  let sum = 0;
  let squares = 0;
  let n = 0;
  for (let y = 1; y < c.height - 1; y++)
    for (let x = 1; x < c.width - 1; x++) {
      const i = y * c.width + x;
      const value =
        4 * luma(c, i) - luma(c, i - 1) - luma(c, i + 1) - luma(c, i - c.width) - luma(c, i + c.width);
      sum += value;
      squares += value * value;
      n++;
    }
  return squares / n - (sum / n) ** 2;
}

const meanAbsoluteDifference = (a: Canvas, b: Canvas) => {
  let sum = 0;
  for (let i = 0; i < a.data.length; i += 4)
    sum +=
      Math.abs(a.data[i]! - b.data[i]!) +
      Math.abs(a.data[i + 1]! - b.data[i + 1]!) +
      Math.abs(a.data[i + 2]! - b.data[i + 2]!);
  return sum / (a.data.length * 0.75);
};

/** Byte equality of two pixel buffers, without a deep comparison of millions of elements. */
const samePixels = (a: Canvas, b: Canvas) =>
  Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength).equals(
    Buffer.from(b.data.buffer, b.data.byteOffset, b.data.byteLength),
  );

const edgeLength = (q: Quad, i: number) =>
  Math.hypot(q[(i + 1) % 4]!.x - q[i]!.x, q[(i + 1) % 4]!.y - q[i]!.y);
const topAngle = (q: Quad) => (Math.atan2(q[1].y - q[0].y, q[1].x - q[0].x) * 180) / Math.PI;

describe('fictional people', () => {
  const people = Array.from({ length: 300 }, (_, seed) => fictionalPerson(seed));

  it('are the same for the same seed and differ between seeds', () => {
    expect(fictionalPerson(42)).toEqual(fictionalPerson(42));
    expect(new Set(people.map((p) => p.idNumber)).size).toBe(people.length);
  });

  it('carry numbers that pass the rules and agree with sex, birth and address', () => {
    for (const person of people) {
      const facts = parseIdNumber(person.idNumber);
      if (!facts.ok) throw new Error(`${person.idNumber}: ${facts.rule}`);
      expect(facts.sex).toBe(person.sex);
      expect(facts.birth).toBe(person.birth);
      expect(person.address.startsWith(facts.region.province)).toBe(true);
      expect(person.address).toContain(facts.region.county);
      expect(Number(facts.region.code.slice(4))).toBeLessThan(70);
    }
  });

  it('have names, nations, births and addresses like real cards', () => {
    for (const person of people) {
      expect([...person.name].length).toBeGreaterThanOrEqual(2);
      expect([...person.name].length).toBeLessThanOrEqual(4);
      expect(NATIONS).toContain(person.nation);
      expect(person.birth >= '1940-01-01' && person.birth <= '2008-12-31').toBe(true);
      expect(person.address.length).toBeGreaterThanOrEqual(10);
      expect(person.address.length).toBeLessThanOrEqual(33);
      expect(person.address).toMatch(/[号室\d]$/);
      expect(person.address).not.toContain('市辖区');
    }
    const han = people.filter((p) => p.nation === '汉').length;
    expect(han / people.length).toBeGreaterThan(0.8);
    expect(han).toBeLessThan(people.length);
    expect(
      people.some((p) =>
        ['欧阳', '司马', '诸葛', '上官', '东方', '皇甫', '慕容', '司徒'].includes(p.name.slice(0, 2)),
      ),
    ).toBe(true);
    expect(new Set(people.map((p) => p.sex))).toEqual(new Set(['男', '女']));
  });

  it('print the divisions as cards do, without the statistical city names', () => {
    expect(divisionPrefix('110105')).toBe('北京市朝阳区');
    expect(divisionPrefix('500229')).toBe('重庆市城口县');
    expect(divisionPrefix('440106')).toBe('广东省广州市天河区');
    expect(divisionPrefix('441900')).toBe('广东省东莞市');
    expect(divisionPrefix('419001')).toBe('河南省济源市');
    expect(divisionPrefix('469002')).toBe('海南省琼海市');
    expect(divisionPrefix('999999')).toBeUndefined();
  });
});

describe('portraits', () => {
  it('are ID photos: 310×400 on a plain light background', () => {
    const portrait = drawPortrait(5);
    expect([portrait.width, portrait.height]).toEqual([310, 400]);
    for (const [x, y] of [
      [3, 3],
      [306, 3],
      [3, 60],
      [306, 60],
    ])
      expect(luma(portrait, y! * 310 + x!)).toBeGreaterThan(190);
    expect(samePixels(drawPortrait(5, 2), drawPortrait(5, 2))).toBe(true);
  });

  it('keep the person across photographs and tell people apart', () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const same = meanAbsoluteDifference(drawPortrait(seed, 0), drawPortrait(seed, 1));
      const other = meanAbsoluteDifference(drawPortrait(seed, 0), drawPortrait(seed + 100, 0));
      expect(same).toBeGreaterThan(0);
      expect(same).toBeLessThan(other);
    }
  });
});

describe('the printed card', () => {
  it('fills the canonical raster the same way every time, and a seed moves the print', () => {
    const person = fictionalPerson(3);
    const card = renderCard(person, { seed: 9 });
    expect([card.width, card.height]).toEqual([CARD_WIDTH, CARD_HEIGHT]);
    expect(samePixels(renderCard(person, { seed: 9 }), card)).toBe(true);
    expect(samePixels(renderCard(person, { seed: 10 }), card)).toBe(false);
  });

  it('prints the temporary title only on a temporary card', () => {
    const person = fictionalPerson(4);
    const reddish = (c: Canvas) => {
      const title = crop(c, TEMPORARY_TITLE_BOX);
      let count = 0;
      for (let o = 0; o < title.data.length; o += 4)
        if (title.data[o]! > 130 && title.data[o]! - title.data[o + 2]! > 60) count++;
      return count;
    };
    expect(reddish(renderCard(person, { temporary: true }))).toBeGreaterThan(500);
    expect(reddish(renderCard(person))).toBe(0);
  });

  it('wraps every address into at most three lines of about eleven characters', () => {
    const { ctx } = surface(10, 10);
    for (const font of CARD_FONTS)
      for (const seed of [undefined, 1, 2, 3]) {
        const print = printOf(seed);
        addressType(ctx, print, cardFont(font));
        for (let n = 0; n < 60; n++) {
          const { address } = fictionalPerson(n);
          const lines = addressLines(ctx, address, print);
          expect(lines.join('')).toBe(address);
          expect(lines.length).toBeLessThanOrEqual(3);
          // No wider than the value box or eleven full-width characters, whichever is wider; digits
          // are narrower, so a line may hold more than eleven.
          const widest = Math.max(LAYOUT.address.valueBox.width, 11 * (print.valueSize + 1)) + 1;
          for (const line of lines) expect(ctx.measureText(line).width).toBeLessThanOrEqual(widest);
          for (const line of lines.slice(0, -1)) expect([...line].length).toBeGreaterThanOrEqual(8);
        }
      }
  });

  it('refuses a font it does not have', () => {
    expect(() => renderCard(fictionalPerson(1), { font: 'Comic Sans' })).toThrow(/unknown card font/);
  });

  describe('read back by Tesseract', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'idcard-specimen-'));
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    /**
     * The text Tesseract reads in each image, one run for all of them (a run loads the model,
     * which costs more than reading a line): the images are the pages of a list, read one by one.
     */
    async function ocr(images: Canvas[], args: string[]): Promise<string[]> {
      const prefix = join(dir, Math.random().toString(36).slice(2));
      const files = images.map((_, i) => `${prefix}-${i}.png`);
      await Promise.all(images.map((image, i) => writeFile(files[i]!, encodePng(image))));
      await writeFile(`${prefix}.txt`, files.join('\n') + '\n');
      const { stdout } = await run('tesseract', [`${prefix}.txt`, '-', ...args]);
      // Pages end with a form feed.
      const pages = stdout.split('\f').slice(0, images.length);
      expect(pages).toHaveLength(images.length);
      return pages.map((page) => page.replace(/\s/g, ''));
    }

    it('reads the number exactly and most names, in every font', async () => {
      let names = 0;
      let exactNames = 0;
      let characters = 0;
      let rightCharacters = 0;
      // Four holders per font, seeds 1 to 12 in turn.
      const printed = CARD_FONTS.flatMap((font, index) =>
        [1, 2, 3, 4].map((n) => {
          const seed = index * 4 + n;
          const person = fictionalPerson(seed);
          return { font, seed, person, card: renderCard(person, { font, seed }) };
        }),
      );
      const [nameReads, numberReads] = await Promise.all([
        ocr(
          printed.map(({ card }) => crop(card, LAYOUT.name.valueBox, 8)),
          ['-l', 'chi_sim', '--psm', '7'],
        ),
        ocr(
          printed.map(({ card }) => crop(card, LAYOUT.id_number.valueBox, 8)),
          ['-l', 'eng', '--psm', '7', '-c', 'tessedit_char_whitelist=0123456789X'],
        ),
      ]);
      for (const [i, { font, seed, person }] of printed.entries()) {
        const [name, number] = [nameReads[i]!, numberReads[i]!];
        expect(number, `${font}, seed ${seed}`).toBe(person.idNumber);
        names++;
        if (name === person.name) exactNames++;
        const read = [...name];
        [...person.name].forEach((character, i) => {
          characters++;
          if (read[i] === character) rightCharacters++;
        });
      }
      // Tesseract's chi_sim model confuses some glyphs of this face (贾 and 员, 凤 and 风, 吕 and 昌)
      // whatever the size or spacing: over 50 holders it reads 60–70 % of the names and about
      // 85 % of the characters exactly.
      expect(exactNames / names).toBeGreaterThanOrEqual(0.5);
      expect(rightCharacters / characters).toBeGreaterThanOrEqual(0.75);
    });
  });
});

describe('specimens', () => {
  const clean = makeSpecimen({ seed: 21 });
  const photo = makeSpecimen({ seed: 21, degradations: ['photo'] });
  const with_ = (...degradations: Degradation[]) => makeSpecimen({ seed: 21, degradations });
  const cardOnly = (...degradations: Degradation[]) => makeSpecimen({ seed: 21, degradations });

  it('are byte-identical for the same options', () => {
    const options = { seed: 5, degradations: ['photo', 'perspective', 'noise', 'blur'] as const };
    const first = makeSpecimen(options).image;
    expect(makeSpecimen(options).image.equals(first)).toBe(true);
    expect(makeSpecimen({ ...options, seed: 6 }).image.equals(first)).toBe(false);
  });

  it('show a clean card as a PNG with the truth of the person', () => {
    expect(clean.image.subarray(1, 4).toString()).toBe('PNG');
    expect([clean.canvas.width, clean.canvas.height]).toEqual([CARD_WIDTH, CARD_HEIGHT]);
    expect(clean.quad).toEqual(rectangle(CARD_WIDTH, CARD_HEIGHT));
    expect(samePixels(decodeImage(clean.image, 1e7), clean.canvas)).toBe(true);
    const { person, truth } = clean;
    expect(truth).toEqual({
      name: person.name,
      sex: person.sex,
      nation: person.nation,
      birth: person.birth,
      address: person.address,
      id_number: person.idNumber,
      temporary: false,
      warnings: [],
    });
    const facts = parseIdNumber(truth.id_number);
    expect(facts.ok && facts.sex === truth.sex && facts.birth === truth.birth).toBe(true);
  });

  it('use the person and font they are given', () => {
    const person = fictionalPerson(777);
    const given = makeSpecimen({ seed: 21, person, font: 'WenQuanYi Zen Hei Mono' });
    expect(given.person).toBe(person);
    expect(given.truth.id_number).toBe(person.idNumber);
    expect(makeSpecimen({ seed: 21, person, font: 'WenQuanYi Zen Hei' }).image.equals(given.image)).toBe(
      false,
    );
  });

  it('photo: the card at 60–85 % of a 1280×960 frame, a little turned, inside it', () => {
    expect([photo.canvas.width, photo.canvas.height]).toEqual([PHOTO_WIDTH, PHOTO_HEIGHT]);
    const quad = photo.quad!;
    expect(edgeLength(quad, 0) / PHOTO_WIDTH).toBeGreaterThan(0.58);
    expect(edgeLength(quad, 0) / PHOTO_WIDTH).toBeLessThan(0.87);
    expect(Math.abs(topAngle(quad))).toBeLessThanOrEqual(2);
    for (const corner of quad) {
      expect(corner.x).toBeGreaterThan(0);
      expect(corner.y).toBeGreaterThan(0);
      expect(corner.x).toBeLessThan(PHOTO_WIDTH);
      expect(corner.y).toBeLessThan(PHOTO_HEIGHT);
    }
    // The card's centre in the image is card stock, far brighter than anything at the corners.
    const toImage = homography(rectangle(CARD_WIDTH, CARD_HEIGHT), quad);
    const centre = project(toImage, 600, 500);
    expect(luma(photo.canvas, Math.round(centre.y) * PHOTO_WIDTH + Math.round(centre.x))).toBeGreaterThan(
      200,
    );
    expect(photo.truth.warnings).toEqual([]);
  });

  it('rotation turns the card 2–8°, for every seed', () => {
    for (const seed of [21, 22, 23, 24]) {
      const turned = makeSpecimen({ seed, degradations: ['rotation'] });
      const angle = Math.abs(topAngle(turned.quad!));
      expect(angle).toBeGreaterThanOrEqual(2);
      expect(angle).toBeLessThanOrEqual(8);
      expect(turned.canvas.width).toBe(PHOTO_WIDTH);
    }
  });

  it('perspective makes opposite edges unequal', () => {
    const slanted = with_('perspective').quad!;
    const ratio = (a: number, b: number) => Math.max(a, b) / Math.min(a, b);
    const worst = Math.max(
      ratio(edgeLength(slanted, 0), edgeLength(slanted, 2)),
      ratio(edgeLength(slanted, 1), edgeLength(slanted, 3)),
    );
    expect(worst).toBeGreaterThan(1.04);
    const level = photo.quad!;
    expect(ratio(edgeLength(level, 0), edgeLength(level, 2))).toBeLessThan(1.001);
  });

  it('cut runs the card out of the frame but keeps the number line in it', () => {
    const cut = with_('cut');
    expect(cut.quad).toBeNull();
    expect(cut.truth.warnings).toEqual(['border']);
    for (let seed = 0; seed < 6; seed++) {
      const shot = photograph(renderCard(fictionalPerson(seed)), seeded(seed), {
        rotation: seed % 2 === 0,
        perspective: seed % 3 === 0,
        cut: true,
      });
      const outside = shot.quad.filter((p) => p.x < 0 || p.y < 0 || p.x > PHOTO_WIDTH || p.y > PHOTO_HEIGHT);
      expect(outside.length).toBeGreaterThan(0);
      const toImage = homography(rectangle(CARD_WIDTH, CARD_HEIGHT), shot.quad);
      const box = LAYOUT.id_number.valueBox;
      for (const [x, y] of [
        [box.x, box.y],
        [box.x + box.width, box.y + box.height],
        [box.x, box.y + box.height],
        [box.x + box.width, box.y],
      ]) {
        const p = project(toImage, x!, y!);
        expect(p.x >= 0 && p.y >= 0 && p.x <= PHOTO_WIDTH && p.y <= PHOTO_HEIGHT).toBe(true);
      }
    }
  });

  it('jpeg: a JPEG file whose decoded pixels are the canvas', () => {
    const jpeg = with_('photo', 'jpeg');
    expect([jpeg.image[0], jpeg.image[1]]).toEqual([0xff, 0xd8]);
    expect(jpeg.image.length).toBeLessThan(photo.image.length / 4);
    const decoded = decodeImage(jpeg.image, 1e7);
    expect([decoded.width, decoded.height]).toEqual([PHOTO_WIDTH, PHOTO_HEIGHT]);
    expect(samePixels(decoded, jpeg.canvas)).toBe(true);
    expect(meanAbsoluteDifference(jpeg.canvas, photo.canvas)).toBeGreaterThan(0.5);
  });

  it('blur softens the card, and is flagged exactly when it is the stronger kind', () => {
    const ratios: { ratio: number; flagged: boolean }[] = [];
    // Two of these five are blurred the stronger kind (33, 34), three not.
    for (let seed = 30; seed < 35; seed++) {
      const sharp = sharpness(makeSpecimen({ seed }).canvas);
      const blurred = makeSpecimen({ seed, degradations: ['blur'] });
      ratios.push({
        ratio: sharpness(blurred.canvas) / sharp,
        flagged: blurred.truth.warnings.includes('blur'),
      });
    }
    for (const { ratio } of ratios) expect(ratio).toBeLessThan(0.5);
    const flagged = ratios.filter((r) => r.flagged).map((r) => r.ratio);
    const unflagged = ratios.filter((r) => !r.flagged).map((r) => r.ratio);
    expect(flagged.length).toBeGreaterThan(0);
    expect(unflagged.length).toBeGreaterThan(0);
    expect(Math.max(...flagged)).toBeLessThan(Math.min(...unflagged));
  });

  it('noise adds grain without moving the picture', () => {
    const noisy = cardOnly('noise').canvas;
    const differences: number[] = [];
    for (let i = 0; i < noisy.data.length; i += 4)
      differences.push(noisy.data[i + 1]! - clean.canvas.data[i + 1]!);
    const mean = differences.reduce((a, b) => a + b, 0) / differences.length;
    const spread = Math.sqrt(differences.reduce((a, b) => a + (b - mean) ** 2, 0) / differences.length);
    expect(Math.abs(mean)).toBeLessThan(2);
    expect(spread).toBeGreaterThan(2.5);
  });

  it('dim darkens, unevenly', () => {
    const dim = cardOnly('dim').canvas;
    expect(meanLuma(dim) / meanLuma(clean.canvas)).toBeLessThan(0.7);
    const side = (c: Canvas, x0: number) =>
      meanLuma(crop(c, { x: x0, y: 0, width: 100, height: CARD_HEIGHT }));
    const left = side(dim, 0) / side(clean.canvas, 0);
    const right = side(dim, CARD_WIDTH - 100) / side(clean.canvas, CARD_WIDTH - 100);
    const top =
      meanLuma(crop(dim, { x: 0, y: 0, width: CARD_WIDTH, height: 80 })) /
      meanLuma(crop(clean.canvas, { x: 0, y: 0, width: CARD_WIDTH, height: 80 }));
    const bottom =
      meanLuma(crop(dim, { x: 0, y: CARD_HEIGHT - 80, width: CARD_WIDTH, height: 80 })) /
      meanLuma(crop(clean.canvas, { x: 0, y: CARD_HEIGHT - 80, width: CARD_WIDTH, height: 80 }));
    expect(Math.max(Math.abs(left - right), Math.abs(top - bottom))).toBeGreaterThan(0.05);
  });

  it('photocopy leaves no colour and warns of a copy', () => {
    for (const copy of [cardOnly('photocopy'), with_('photo', 'photocopy', 'noise', 'moire')]) {
      const { data } = copy.canvas;
      let saturation = 0;
      for (let o = 0; o < data.length; o += 4)
        saturation = Math.max(
          saturation,
          Math.abs(data[o]! - data[o + 1]!),
          Math.abs(data[o + 1]! - data[o + 2]!),
        );
      expect(saturation).toBe(0);
      expect(copy.truth.warnings).toContain('copy');
    }
    expect(sharpness(cardOnly('photocopy').canvas)).toBeGreaterThan(0);
  });

  it('moire lays a sub-pixel column grid over the picture and asks for a reshoot', () => {
    const moire = cardOnly('moire');
    const columnRatio = (c: Canvas) => {
      const sums = [0, 0, 0];
      for (let y = 0; y < c.height; y++)
        for (let x = 0; x < c.width - 2; x++) sums[x % 3]! += c.data[(y * c.width + x) * 4]!;
      return sums[0]! / sums[1]!;
    };
    expect(Math.abs(columnRatio(clean.canvas) - 1)).toBeLessThan(0.01);
    expect(columnRatio(moire.canvas)).toBeGreaterThan(1.1);
    expect(moire.truth.warnings).toEqual(['reshoot']);
  });

  it('glare washes part of the card out but not the number line', () => {
    const glare = cardOnly('glare');
    const blown = (c: Canvas) => {
      let count = 0;
      for (let i = 0; i < c.width * c.height; i++) if (luma(c, i) > 250) count++;
      return count;
    };
    expect(blown(glare.canvas) - blown(clean.canvas)).toBeGreaterThan(5000);
    const numberLine = {
      x: 0,
      y: LAYOUT.id_number.valueBox.y - 6,
      width: CARD_WIDTH,
      height: CARD_HEIGHT - LAYOUT.id_number.valueBox.y + 6,
    };
    expect(samePixels(crop(glare.canvas, numberLine), crop(clean.canvas, numberLine))).toBe(true);
    expect(glare.truth.warnings).toEqual(['reshoot']);
  });

  it('pasted shows another value for one field, on a patch, and warns of editing', () => {
    const fields = new Set<string>();
    // Seeds 40 to 43 paste over a name, an address, a number and a name.
    for (let seed = 40; seed < 44; seed++) {
      const plain = makeSpecimen({ seed });
      const pasted = makeSpecimen({ seed, degradations: ['pasted'] });
      expect(pasted.truth.warnings).toEqual(['ps']);
      const changed = (['name', 'address', 'id_number'] as const).filter(
        (f) => pasted.truth[f] !== plain.truth[f],
      );
      expect(changed).toHaveLength(1);
      const field = changed[0]!;
      fields.add(field);
      if (field === 'id_number') expect(parseIdNumber(pasted.truth.id_number).ok).toBe(true);
      // Every changed pixel lies in that field's value area (with room for the patch's edge).
      const box = LAYOUT[field].valueBox;
      const { data } = pasted.canvas;
      let inside = 0;
      let outside = 0;
      for (let i = 0; i < CARD_WIDTH * CARD_HEIGHT; i++) {
        if (data[i * 4] === plain.canvas.data[i * 4] && data[i * 4 + 1] === plain.canvas.data[i * 4 + 1])
          continue;
        const [x, y] = [i % CARD_WIDTH, Math.floor(i / CARD_WIDTH)];
        const near =
          x >= box.x - 20 && x <= box.x + box.width + 40 && y >= box.y - 20 && y <= box.y + box.height + 20;
        if (near) inside++;
        else outside++;
      }
      expect(outside, `${field}, seed ${seed}`).toBe(0);
      expect(inside).toBeGreaterThan(2000);
    }
    expect(fields.size).toBe(3);
  });

  it('temporary prints a temporary card and says so', () => {
    const temporary = cardOnly('temporary');
    expect(temporary.truth.temporary).toBe(true);
    expect(temporary.truth.warnings).toEqual(['temp_id']);
    expect(samePixels(temporary.canvas, clean.canvas)).toBe(false);
  });

  it('list their warnings in one order, once each', () => {
    const many: Specimen = makeSpecimen({
      seed: 8,
      degradations: ['temporary', 'glare', 'moire', 'pasted', 'cut', 'photocopy', 'blur', 'jpeg'],
    });
    const expected = ['copy', 'border', 'reshoot', 'ps', 'temp_id', 'blur'].filter(
      (w) => w !== 'blur' || many.truth.warnings.includes('blur'),
    );
    expect(many.truth.warnings).toEqual(expected);
  });
});
