/**
 * The 民族 value against its print: the one-character groups that a misread character leaves at
 * the same edit distance as 汉 (满, 回, 苗, 壮) are read as printed, on the specimen maker's cards
 * and on another printer's photographed ones.
 */
import { describe, expect, it, vi } from 'vitest';
import { decodeImage } from '../../src/engines/image-codec.js';
import { nationOf, snapNation } from '../../src/engines/idcard/ocr/nation.js';
import { readCard } from '../../src/engines/idcard/ocr/index.js';
import { CARD_FONTS, fictionalPerson, makeSpecimen } from '../support/idcard-specimen/index.js';
import { printedLine } from '../support/idcard-specimen/printed-line.js';
import { makeOtherCard } from '../support/idcard-other-print/index.js';

vi.setConfig({ testTimeout: 120_000 });

const NATIONS = ['满', '回', '苗', '壮'];
const MAX_PIXELS = 50_000_000;
const holder = (seed: number, nation: string) => ({ ...fictionalPerson(seed), nation });

const printed = (text: string) => printedLine(text, CARD_FONTS[0]);

describe('nation', () => {
  it('takes the group whose print fits the line where a character was misread, not the first at that distance', () => {
    // 滴 is one substitution from every one-character group; by text alone 汉 would win the tie.
    expect(snapNation('滴')?.nation).toBe('汉');
    for (const nation of NATIONS) expect(nationOf('滴', printed(nation))?.nation).toBe(nation);
    expect(nationOf('滴', printed('汉'))?.nation).toBe('汉');
    expect(nationOf('维吾', printed('维吾尔'))?.nation).toBe('维吾尔');
    // A name read exactly stands where its print agrees.
    expect(nationOf('回', printed('回'))).toEqual({ nation: '回', distance: 0 });
  });

  it('reads 满, 回, 苗 and 壮 as printed, never as 汉', async () => {
    const read: string[] = [];
    for (const [i, nation] of NATIONS.entries()) {
      const person = holder(9100 + i, nation);
      const specimen = makeSpecimen({ seed: 9100 + i, person, degradations: ['photo', 'jpeg'] });
      read.push((await readCard(specimen.canvas)).fields.nation);
      const other = makeOtherCard({ seed: 9100 + i, person, capture: 'phone' });
      read.push((await readCard(decodeImage(other.image, MAX_PIXELS))).fields.nation);
    }
    expect(read).toEqual(NATIONS.flatMap((n) => [n, n]));
  });
});
