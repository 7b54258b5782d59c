/**
 * How alike the persons in two portraits are, 0–100, with 70 the line between one person and
 * two. Two measures, the higher of which counts:
 * - the distance between the faces' descriptors (faces.ts), mapped so that 70 falls at the
 *   distance below which no stranger's pair lay on the two card makers it was calibrated on
 *   (bench/identity.mjs: 0.27; the holders' pairs lie at 0.24 in the median, strangers' at 0.42);
 * - the head compared by structure, outline, hair and tones against each photo's own backdrop
 *   (checks/portrait/similarity.ts), which tells these makers' drawn holders from strangers
 *   almost always, but gives a holder drawn another way 0.
 * Either alone misses holders the other finds; strangers stay below 70 on both.
 */
import type { Canvas } from '../../canvas.js';
import { portraitSimilarity } from '../checks/index.js';
import { descriptorDistance, descriptorOf } from './faces.js';

/** The descriptor distance scored 70. */
const SAME_PERSON_DISTANCE = 0.27;
/** How quickly the score falls with distance: 0.03 further scores about 40, 0.03 nearer about 86. */
const DISTANCE_SCALE = 0.03;
const AT_LINE = Math.log(0.7 / 0.3);

/** 0–100 from the descriptors' distance; 0 where either portrait shows no face to the detector. */
export async function descriptorSimilarity(a: Canvas, b: Canvas): Promise<number> {
  const [da, db] = [await descriptorOf(a), await descriptorOf(b)];
  if (!da || !db) return 0;
  const distance = descriptorDistance(da, db);
  return 100 / (1 + Math.exp(-((SAME_PERSON_DISTANCE - distance) / DISTANCE_SCALE + AT_LINE)));
}

export async function faceSimilarity(a: Canvas, b: Canvas): Promise<number> {
  const score = Math.max(await descriptorSimilarity(a, b), portraitSimilarity(a, b));
  return Math.round(score * 100) / 100;
}
