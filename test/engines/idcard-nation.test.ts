/**
 * The 民族 value against its print: the one-character groups that a misread character leaves at
 * the same edit distance as 汉 (满, 回, 苗, 壮) are read as printed, on the specimen maker's cards
 * and on another printer's photographed ones.
 */
import { describe, expect, it, vi } from 'vitest';
import { decodeImage } from '../../src/engines/image-codec.js';
import { snapNation } from '../../src/engines/idcard/ocr/nation.js';
import { readCard } from '../../src/engines/idcard/ocr/index.js';
import { fictionalPerson, makeSpecimen } from '../support/idcard-specimen/index.js';
import { makeOtherCard } from '../support/idcard-other-print/index.js';

vi.setConfig({ testTimeout: 120_000 });

const NATIONS = ['满', '回', '苗', '壮'];
const MAX_PIXELS = 50_000_000;
const holder = (seed: number, nation: string) => ({ ...fictionalPerson(seed), nation });

describe('nation', () => {
  it('snaps a misread name to the nearest group, ties to the more populous', () => {
    // 滴 is one substitution from every one-character group: 汉 comes first.
    expect(snapNation('滴')?.nation).toBe('汉');
    expect(snapNation('回族')).toEqual({ nation: '回', distance: 0 });
  });

  it('counts a character missed for less than one misread, and a look-alike the recogniser saw for half', () => {
    // A rare character under the recogniser's floor is dropped: 拉 is 拉祜, not 汉.
    expect(snapNation('维吾')).toEqual({ nation: '维吾尔', distance: 0.75 });
    expect(snapNation('拉')?.nation).toBe('拉祜');
    // 士 read where the recogniser also saw 土: 土, not 汉.
    expect(snapNation('士', [['土', '七']])).toEqual({ nation: '土', distance: 0.5 });
    expect(snapNation('士')?.nation).toBe('汉');
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
