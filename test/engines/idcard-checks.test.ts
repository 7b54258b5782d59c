/**
 * The ID card image checks on synthetic specimens: each check on cards that carry its
 * degradation and on cards that do not, over several seeds; sharpness falling below 50 only for
 * strong blur; the portrait cut from a card and not from a blank or printed area; portraits of
 * one person scoring at least 70 and of different persons below.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { portraitOn } from '../../src/engines/idcard/face/portrait.js';
import type { Canvas } from '../../src/engines/canvas.js';
import {
  isCutOff,
  isPhotocopy,
  isReshoot,
  isTampered,
  portraitSimilarity,
  qualityScore,
} from '../../src/engines/idcard/checks/index.js';
import {
  CARD_HEIGHT,
  CARD_WIDTH,
  FIELDS,
  LAYOUT,
  PORTRAIT_BOX,
  type Box,
  type Field,
} from '../../src/engines/idcard/layout.js';
import { readCard } from '../../src/engines/idcard/ocr/index.js';
import { paintCardStock } from '../support/idcard-specimen/card-background.js';
import {
  drawPortrait,
  makeSpecimen,
  type Degradation,
  type Specimen,
} from '../support/idcard-specimen/index.js';
import { pixelsOf, surface, surfaceOf } from '../support/idcard-specimen/surface.js';
import { warpQuad } from '../../src/engines/idcard/warp.js';
import { seeded } from '../../src/engines/random.js';

// Some tests read dozens of cards with Tesseract: seconds each on a machine busy with other test
// files, so they get more than the default.
vi.setConfig({ testTimeout: 120_000 });

// Most checks are run on the same cards (each check on the unwarned ones, for instance): each
// card is made and rectified once for the whole file. The checks only read their input.
const made = new Map<string, Specimen>();
const rectified = new Map<Specimen, Canvas>();
afterAll(() => {
  made.clear();
  rectified.clear();
});

function specimen(seed: number, ...degradations: Degradation[]): Specimen {
  const key = `${seed} ${degradations.join('+')}`;
  let s = made.get(key);
  if (!s) made.set(key, (s = makeSpecimen({ seed, degradations })));
  return s;
}

/** The card rectified where the specimen says it lies (what a reader does when it finds the outline). */
function cardOf(s: Specimen): Canvas {
  let card = rectified.get(s);
  if (!card) rectified.set(s, (card = warpQuad(s.canvas, s.quad!, CARD_WIDTH, CARD_HEIGHT)));
  return card;
}

// Two cards for each degradation, each check on a dozen cards without its own.
const SEEDS = [11, 12];
const UNWARNED: Degradation[][] = [
  [],
  ['photo'],
  ['jpeg'],
  ['noise'],
  ['dim'],
  ['photo', 'rotation', 'jpeg'],
];

describe('quality score', () => {
  it('stays at 60 or more for sharp cards, photographed, compressed, noisy or dim', () => {
    for (const [i, degradations] of [...UNWARNED, ['perspective', 'noise'] as Degradation[]].entries()) {
      const score = qualityScore(cardOf(specimen(SEEDS[i % SEEDS.length]!, ...degradations)));
      expect(score, `${degradations.join('+') || 'clean'}`).toBeGreaterThanOrEqual(60);
      expect(score).toBeLessThanOrEqual(100);
    }
  });

  it('falls below 50 exactly for the blurred cards that carry the blur warning', () => {
    let strong = 0;
    let mild = 0;
    // Three of these six carry the warning (20, 23, 25) and three do not.
    for (let seed = 20; seed < 26; seed++) {
      const s = specimen(seed, 'blur');
      const blurred = s.truth.warnings.includes('blur');
      if (blurred) strong++;
      else mild++;
      const score = qualityScore(cardOf(s));
      expect(score < 50, `seed ${seed}: score ${score}`).toBe(blurred);
    }
    // Both sides of the threshold were exercised.
    expect(strong).toBeGreaterThan(1);
    expect(mild).toBeGreaterThan(1);
  });

  it('does not take noise for sharpness', () => {
    const blurred = specimen(21, 'blur');
    const blurredAndNoisy = specimen(21, 'blur', 'noise');
    expect(
      Math.abs(qualityScore(cardOf(blurredAndNoisy)) - qualityScore(cardOf(blurred))),
    ).toBeLessThanOrEqual(5);
  });
});

describe('photocopy', () => {
  it('flags copies and greyscale scans, never colour cards', () => {
    for (const seed of SEEDS) {
      expect(isPhotocopy(cardOf(specimen(seed, 'photocopy'))), `copy ${seed}`).toBe(true);
      for (const degradations of UNWARNED)
        expect(
          isPhotocopy(cardOf(specimen(seed, ...degradations))),
          `${degradations.join('+')} ${seed}`,
        ).toBe(false);
    }
  });
});

describe('card cut off', () => {
  it('flags a card running out of the frame, by the reader’s outline and by the frame itself', async () => {
    for (const seed of SEEDS) {
      const s = specimen(seed, 'cut');
      expect(isCutOff(s.canvas, null), `cut ${seed}`).toBe(true);
      if (seed === SEEDS[0]) {
        const reading = await readCard(s.canvas);
        expect(isCutOff(s.canvas, reading.quad)).toBe(true);
      }
    }
    // A corner beyond the frame says so by itself.
    const whole = specimen(SEEDS[0]!, 'photo');
    const [a, b, c, d] = whole.quad!;
    expect(isCutOff(whole.canvas, [{ x: a.x, y: -30 }, { x: b.x, y: -25 }, c, d])).toBe(true);
  });

  it('leaves whole cards alone, photographed or scanned edge to edge', () => {
    for (const seed of SEEDS)
      for (const degradations of [
        ...UNWARNED,
        ['perspective'] as Degradation[],
        ['photo', 'dim'] as Degradation[],
      ]) {
        const s = specimen(seed, ...degradations);
        expect(isCutOff(s.canvas, s.quad), `${degradations.join('+') || 'clean'} ${seed}`).toBe(false);
        expect(isCutOff(s.canvas, null)).toBe(false);
      }
  });
});

describe('reshoot', () => {
  it('flags a screen’s pixel grid and a glare', () => {
    for (const seed of SEEDS)
      for (const kind of ['moire', 'glare'] as const) {
        const s = specimen(seed, kind);
        expect(isReshoot(s.canvas, cardOf(s)), `${kind} ${seed}`).toBe(true);
      }
  });

  it('leaves printed cards alone, photocopies included', () => {
    for (const seed of SEEDS)
      for (const degradations of [
        ...UNWARNED,
        ['photocopy'] as Degradation[],
        ['perspective'] as Degradation[],
      ]) {
        const s = specimen(seed, ...degradations);
        expect(isReshoot(s.canvas, cardOf(s)), `${degradations.join('+') || 'clean'} ${seed}`).toBe(false);
      }
  });
});

describe('pasted value', () => {
  it('flags a patch over a value where the reader found it, and not the genuine card', async () => {
    const [pasted, genuine] = await Promise.all([
      readCard(specimen(SEEDS[0]!, 'pasted').canvas),
      readCard(specimen(SEEDS[1]!, 'photo').canvas),
    ]);
    expect(isTampered(pasted.card, pasted.valueBoxes)).toBe(true);
    expect(isTampered(genuine.card, genuine.valueBoxes)).toBe(false);
  });

  it('does not mistake light, noise, compression, copying or glare for a patch', () => {
    // The layout's boxes, as a reader reports them when it reads no line of a value.
    const boxes = Object.fromEntries(FIELDS.map((f) => [f, LAYOUT[f].valueBox])) as Record<Field, Box>;
    for (const seed of SEEDS) {
      expect(isTampered(cardOf(specimen(seed, 'pasted')), boxes), `pasted ${seed}`).toBe(true);
      for (const degradations of [...UNWARNED, ['photocopy'], ['glare'], ['moire']] as Degradation[][])
        expect(
          isTampered(cardOf(specimen(seed, ...degradations)), boxes),
          `${degradations.join('+')} ${seed}`,
        ).toBe(false);
    }
  });
});

/** A card stock with nothing printed on it, and one with lines of text where the photo goes. */
function blankCards(): { blank: Canvas; text: Canvas } {
  const drawn = surface(CARD_WIDTH, CARD_HEIGHT);
  paintCardStock(drawn.ctx, seeded(7), false);
  const blank = pixelsOf(drawn);
  const printed = surfaceOf(blank);
  printed.ctx.fillStyle = 'rgb(20,20,24)';
  printed.ctx.font = '36px "WenQuanYi Zen Hei"';
  for (let line = 0; line < 8; line++)
    printed.ctx.fillText('公民身份号码住址出生', PORTRAIT_BOX.x + 4, PORTRAIT_BOX.y + 40 + line * 48);
  return { blank, text: pixelsOf(printed) };
}

describe('portrait', () => {
  it('cuts the photo from a card, tight to its own edges', async () => {
    for (const seed of SEEDS) {
      const photo = await portraitOn(cardOf(specimen(seed, 'photo')));
      expect(photo, `seed ${seed}`).not.toBeNull();
      expect(Math.abs(photo!.width - PORTRAIT_BOX.width)).toBeLessThanOrEqual(8);
      expect(Math.abs(photo!.height - PORTRAIT_BOX.height)).toBeLessThanOrEqual(8);
    }
  });

  it('finds no photo on blank card stock or on text', async () => {
    const { blank, text } = blankCards();
    expect(await portraitOn(blank)).toBeNull();
    expect(await portraitOn(text)).toBeNull();
  });

  it('scores the same person at 70 or more and different persons below 70', async () => {
    // Cards as rendered and photographed, each person against their own portrait and the next one's.
    const seeds = [41, 42, 43];
    const cards = seeds.map((seed, i) =>
      specimen(seed, ...(i % 2 === 0 ? [] : (['photo'] as Degradation[]))),
    );
    for (const [i, s] of cards.entries()) {
      const photo = (await portraitOn(cardOf(s)))!;
      const same = portraitSimilarity(photo, drawPortrait(s.person.portraitSeed, 1));
      const other = cards[(i + 1) % cards.length]!.person.portraitSeed;
      const different = portraitSimilarity(photo, drawPortrait(other, 1));
      expect(same, `same ${seeds[i]}`).toBeGreaterThanOrEqual(70);
      expect(different, `different ${seeds[i]}`).toBeLessThan(70);
      expect(same).toBe(Math.round(same * 100) / 100);
    }
  });

  it('scores 0 when a picture shows no head', () => {
    const { blank } = blankCards();
    expect(portraitSimilarity(blank, drawPortrait(41, 1))).toBe(0);
  });
});
