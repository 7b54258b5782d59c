/**
 * Portrait similarity, 0–100, 70 the decision threshold: the steps a face-comparison pipeline
 * takes, without a learned model. Each photo's head is found against its plain background and
 * its colours balanced on that background (findHeads: as it is, and with a glare spot taken
 * off where one lights the backdrop); the second head is registered onto the first (shift, roll,
 * scale); then five distances are measured: the gradient structure of the face (HOG), the
 * outline (silhouette), where the hair is (hairline and style), and the tones of skin and hair.
 * A logistic function of those distances, fitted on photos of the same and of different persons,
 * gives the score; it is calibrated so that 70 separates them. In colour, a difference in where
 * the hair lies beyond what nearly all genuine pairs show weighs more than the fit's line says.
 * Photos without colour (a photocopied card) have their own fit, in which tones count by rank and
 * little.
 */
import type { Canvas } from '../../../canvas.js';
import { register, type Described } from './align.js';
import { findHeads, type Head } from './head.js';
import { looksLikeHead } from './presence.js';
import { descriptorDistance, gradientsOf, shapeOf, UPRIGHT } from './shape.js';
import { hairMapOf, toneDistance, tonesOf } from './tones.js';

type Measure = 'hog' | 'silhouette' | 'hair' | 'skin' | 'hairTone';

interface Calibration {
  /** Weight per distance, from a logistic fit of same- against different-person pairs. */
  weights: Record<Measure, number>;
  bias: number;
}

/**
 * Fitted on card photos (clean, photographed, blurred, noisy, dim, compressed, behind a screen's
 * grid) against clean reference photos, 30–100 pairs of each kind.
 */
const COLOUR: Calibration = {
  weights: { hog: 35.04, silhouette: 18.6, hair: 18.97, skin: 9.07, hairTone: 7.41 },
  bias: 9.429,
};
/** Fitted on photocopied cards: without colour the gradient structure carries the decision. */
const GREY: Calibration = {
  weights: { hog: 137.29, silhouette: 3.68, hair: 2.3, skin: 4.75, hairTone: 0 },
  bias: 15.444,
};
/**
 * Where the hair lies differs between two photos of one person by little more than framing and
 * cut: 0.127 on the descriptor's scale at the 99th percentile of genuine pairs in colour (the other
 * printer's seeds 53 000–53 299 and the specimen maker's 75 000–75 143). Beyond it, each unit counts
 * this much more than the fit's own weight: a stranger of the holder's hair colour, outline and
 * skin differs from them mostly there, and the linear fit, which must forgive a holder's noise on
 * every distance at once, let such strangers through at 72–80.
 */
const HAIR_BEYOND = { from: 0.127, weight: 50 };
/** The fits' even odds are moved from 50 to the decision threshold, 70. */
const THRESHOLD_SHIFT = Math.log(0.7 / 0.3);

function described(head: Head | null): Described | null {
  if (head === null || !looksLikeHead(head)) return null;
  const tones = tonesOf(head);
  return { head, tones, hairy: hairMapOf(head, tones), gradients: gradientsOf(head) };
}

/** The distances between two described heads, `b` registered onto `a`. */
function distances(a: Described, b: Described) {
  const fixed = shapeOf(a.head, a.hairy, a.gradients, UPRIGHT);
  const { shape } = register(fixed, b);
  const coloured = a.tones.coloured && b.tones.coloured;
  return {
    coloured,
    hog: descriptorDistance(fixed.hog, shape.hog),
    silhouette: descriptorDistance(fixed.silhouette, shape.silhouette),
    hair: descriptorDistance(fixed.hair, shape.hair),
    // Without colour on both sides, grey levels are compared by rank (a copy's contrast is not a photo's).
    skin: coloured
      ? toneDistance(a.tones.skin, b.tones.skin, true)
      : Math.abs(a.tones.skinRank - b.tones.skinRank),
    hairTone: coloured
      ? toneDistance(a.tones.hair, b.tones.hair, true)
      : Math.abs(a.tones.hairRank - b.tones.hairRank),
  };
}

function scoreOf(first: Described, second: Described): number {
  const d = distances(first, second);
  const { weights, bias } = d.coloured ? COLOUR : GREY;
  let logit = bias + THRESHOLD_SHIFT;
  for (const key of Object.keys(weights) as Measure[]) logit -= weights[key] * d[key];
  if (d.coloured) logit -= HAIR_BEYOND.weight * Math.max(0, d.hair - HAIR_BEYOND.from);
  return Math.round(10_000 / (1 + Math.exp(-logit))) / 100;
}

/**
 * How alike the persons in two ID photos are, 0–100 with two decimals; 0 when either shows no
 * head. A photo whose backdrop a glare spot lights is also compared with the spot taken off
 * (glare.ts), and the closer of the two comparisons counts (where the glare hides the head as
 * it is, the head with the spot taken off compares alone): what looks like a spot on the
 * backdrop can be the card stock in a cut or a backdrop's own shading, which taking it off
 * would spoil, and the photo as it is then compares as before.
 */
export function portraitSimilarity(a: Canvas, b: Canvas): number {
  const [heads, references] = [findHeads(a), findHeads(b)];
  const firsts = [described(heads.head), described(heads.unglared)].filter((d) => d !== null);
  const seconds = [described(references.head), described(references.unglared)].filter((d) => d !== null);
  if (firsts.length === 0 || seconds.length === 0) return 0;
  return Math.max(...firsts.flatMap((f) => seconds.map((s) => scoreOf(f, s))));
}
