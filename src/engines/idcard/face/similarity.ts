/**
 * How alike the persons in two portraits are, 0–100, with 70 the line between one person and
 * two. Two measures, the higher of which counts:
 * - the distance between the faces' descriptors (faces.ts), mapped so that 70 falls below the
 *   nearest stranger's pair on the two card makers it was calibrated on (0.246 among 100 pairs,
 *   seeds 10 000 and 50 000 onwards; holders' pairs lie at 0.22 in the median, strangers' at 0.38):
 *   these drawn faces are alike to a model trained on photographs, so the line sits at 0.21 and
 *   the descriptor vouches for about a third of the holders alone;
 * - the head compared by structure, outline, hair and tones against each photo's own backdrop
 *   (checks/portrait/similarity.ts), which tells these makers' drawn holders from strangers
 *   almost always, but gives a holder drawn another way 0.
 * Either alone misses holders the other finds; strangers stay below 70 on both.
 */
import type { Canvas } from '../../canvas.js';
import { portraitSimilarity } from '../checks/index.js';
import { descriptorDistance, descriptorOf } from './faces.js';

/** The descriptor distance scored 70. */
const SAME_PERSON_DISTANCE = 0.21;
/** How quickly the score falls with distance: 0.02 further scores about 46, 0.02 nearer about 86. */
const DISTANCE_SCALE = 0.02;
const AT_LINE = Math.log(0.7 / 0.3);

/** 0–100 from the descriptors' distance; 0 where either portrait shows no face to the detector. */
export async function descriptorSimilarity(a: Canvas, b: Canvas): Promise<number> {
  const [da, db] = [await descriptorOf(a), await descriptorOf(b)];
  if (!da || !db) return 0;
  const distance = descriptorDistance(da, db);
  return 100 / (1 + Math.exp(-((SAME_PERSON_DISTANCE - distance) / DISTANCE_SCALE + AT_LINE)));
}

export interface Measures {
  /** 0–100 by the faces' descriptors. */
  descriptor: number;
  /** 0–100 by the head against its backdrop. */
  head: number;
}

export async function similarityMeasures(a: Canvas, b: Canvas): Promise<Measures> {
  return { descriptor: await descriptorSimilarity(a, b), head: portraitSimilarity(a, b) };
}

/** The higher of the two measures, to two decimals. */
export const combined = ({ descriptor, head }: Measures) =>
  Math.round(Math.max(descriptor, head) * 100) / 100;
