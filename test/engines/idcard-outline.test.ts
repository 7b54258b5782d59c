/**
 * Finding the card's outline where it nearly fills the picture: another printer's cards laid on
 * a scanner with a margin of a few pixels or none, a side of the card on the frame or past it.
 * The outline must be the card's own edges (or the frame where the card reaches it), never a
 * line printed on the card (the photo's frame, the guilloche), which would rectify the card
 * stretched and cut its portrait from the wrong place.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../../src/engines/image-codec.js';
import { locateCard } from '../../src/engines/idcard/ocr/locate.js';
import { isCutOff } from '../../src/engines/idcard/checks/index.js';
import { makeSpecimen } from '../support/idcard-specimen/index.js';
import { makeOtherCard, type OtherCard } from '../support/idcard-other-print/index.js';

const MAX_PIXELS = 50_000_000;

// Two of the scans are looked at by two tests: each card is made once.
const made = new Map<number, OtherCard>();
afterAll(() => made.clear());
function otherCard(seed: number): OtherCard {
  let card = made.get(seed);
  if (!card) made.set(seed, (card = makeOtherCard({ seed })));
  return card;
}

/** How the card was captured, and the largest distance (pixels) of a corner found from the card's. */
function located(seed: number): { capture: string; error: number } {
  const card = otherCard(seed);
  const quad = locateCard(decodeImage(card.image, MAX_PIXELS));
  expect(quad, `seed ${seed}: no outline`).not.toBeNull();
  const error = Math.max(
    ...quad!.map((p, i) => Math.hypot(p.x - card.corners[i]![0], p.y - card.corners[i]![1])),
  );
  return { capture: card.capture, error };
}

describe('the card outline on close-cut scans', () => {
  it('is the card itself where its edge lies a pixel from the frame or runs past it', () => {
    // 53044: the right side past the frame; 53234, 50244: right and bottom a pixel from it;
    // 53193: the right side 4 pixels in. Each was once closed on the photo's frame or a line
    // of the guilloche, 44 to 216 pixels off.
    for (const seed of [53044, 53234, 50244, 53193]) {
      const { capture, error } = located(seed);
      expect(capture, `seed ${seed}`).toBe('scan');
      expect(error, `seed ${seed}`).toBeLessThan(15);
    }
  });

  it('leaves a card whole that the scan holds a pixel or two inside its frame', () => {
    for (const seed of [53234, 50244]) {
      const card = otherCard(seed);
      const image = decodeImage(card.image, MAX_PIXELS);
      const inside = card.corners.every(
        ([x, y]) => x >= 0 && y >= 0 && x <= image.width && y <= image.height,
      );
      expect(inside, `seed ${seed}`).toBe(true);
      expect(isCutOff(image, locateCard(image)), `seed ${seed}`).toBe(false);
    }
  });

  it('is found as before on phone photos, whose cards lie well inside the frame', () => {
    for (const seed of [53000, 50002]) {
      const { capture, error } = located(seed);
      expect(capture, `seed ${seed}`).toBe('phone');
      expect(error, `seed ${seed}`).toBeLessThan(15);
    }
  });

  it('is not made of the frame and lines inside a card that fills the whole picture', () => {
    // A rendering of the card alone: no surface anywhere, so the reader takes the whole image.
    for (const seed of [11, 12, 13]) {
      const specimen = makeSpecimen({ seed });
      expect(locateCard(specimen.canvas), `seed ${seed}`).toBeNull();
    }
  });
});
