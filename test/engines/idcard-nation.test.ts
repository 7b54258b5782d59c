/**
 * The 民族 value against its print: the one-character groups that a misread character leaves at
 * the same edit distance as 汉 (满, 回, 苗, 壮) are read as printed, on the specimen maker's cards
 * and on another printer's photographed ones.
 */
import { describe, expect, it, vi } from 'vitest';
import { createCanvas } from '@napi-rs/canvas';
import { inspect } from '../../src/engines/idcard/steps.js';
import { nationOf, snapNation } from '../../src/engines/idcard/ocr/nation.js';
import type { LineCrop } from '../../src/engines/idcard/ocr/value-crops.js';
import { readCard } from '../../src/engines/idcard/ocr/index.js';
import { CARD_FONTS, fictionalPerson, makeSpecimen } from '../support/idcard-specimen/index.js';
import { cardFont } from '../support/idcard-specimen/fonts.js';
import { makeOtherCard } from '../support/idcard-other-print/index.js';

vi.setConfig({ testTimeout: 120_000 });

const NATIONS = ['满', '回', '苗', '壮'];
const holder = (seed: number, nation: string) => ({ ...fictionalPerson(seed), nation });

/** A line crop of `text` printed in the card's face, as the reader cuts it. */
function printedLine(text: string): LineCrop {
  const width = 40 + 44 * [...text].length;
  const drawn = createCanvas(width, 60);
  const ctx = drawn.getContext('2d');
  ctx.fillStyle = 'rgb(236,238,240)';
  ctx.fillRect(0, 0, width, 60);
  ctx.fillStyle = 'rgb(20,20,24)';
  ctx.font = `38px ${cardFont(CARD_FONTS[0])}`;
  ctx.textBaseline = 'middle';
  ctx.fillText(text, 20, 30);
  const rgba = ctx.getImageData(0, 0, width, 60).data;
  const data = new Uint8Array(width * 60);
  for (let i = 0; i < data.length; i++) data[i] = rgba[4 * i + 1]!;
  return {
    raster: { width, height: 60, data },
    tones: { paper: 238, ink: 20 },
    box: { x: 0, y: 0, width, height: 60 },
  };
}

describe('nation', () => {
  it('takes the group whose print fits the line where a character was misread, not the first at that distance', () => {
    // 滴 is one substitution from every one-character group; by text alone 汉 would win the tie.
    expect(snapNation('滴')?.nation).toBe('汉');
    for (const nation of NATIONS) expect(nationOf('滴', printedLine(nation))?.nation).toBe(nation);
    expect(nationOf('滴', printedLine('汉'))?.nation).toBe('汉');
    expect(nationOf('维吾', printedLine('维吾尔'))?.nation).toBe('维吾尔');
    // A name read exactly stands where its print agrees.
    expect(nationOf('回', printedLine('回'))).toEqual({ nation: '回', distance: 0 });
  });

  it('reads 满, 回, 苗 and 壮 as printed, never as 汉', async () => {
    const read: string[] = [];
    for (const [i, nation] of NATIONS.entries()) {
      const person = holder(9100 + i, nation);
      const specimen = makeSpecimen({ seed: 9100 + i, person, degradations: ['photo', 'jpeg'] });
      read.push((await readCard(specimen.canvas)).fields.nation);
      const other = makeOtherCard({ seed: 9100 + i, person, capture: 'phone' });
      read.push((await inspect(other.image)).fields.nation);
    }
    expect(read).toEqual(NATIONS.flatMap((n) => [n, n]));
  });
});
