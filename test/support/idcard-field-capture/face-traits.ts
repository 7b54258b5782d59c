/**
 * Who a face is and how one photo of it was taken. The traits are fixed by the face seed, so
 * every photo of a holder shows the same proportions, complexion and hair; the shot (pose,
 * light, expression, framing) changes from photo to photo.
 */
import { hashOf, pick, seeded, type Random } from '../../../src/engines/random.js';

export type Rgb = [number, number, number];
export type HairStyle = 'crop' | 'side-part' | 'buzz' | 'long' | 'bob' | 'bun' | 'receding';

export interface FaceTraits {
  skin: Rgb;
  /** Half-width and half-height of the face in units of the default head. */
  width: number;
  length: number;
  /** Jaw width at its corner and chin width, as parts of the face's half-width. */
  jaw: number;
  chin: number;
  /** Half the distance between the eye centres, eye width and height, as parts of the half-width. */
  eyeGap: number;
  eyeWidth: number;
  eyeOpen: number;
  eyeTilt: number;
  /** Eye height below the face centre, as part of the half-height (negative: above). */
  eyeLevel: number;
  doubleLid: boolean;
  browThickness: number;
  browArch: number;
  browLift: number;
  noseLength: number;
  noseWidth: number;
  mouthWidth: number;
  mouthLevel: number;
  upperLip: number;
  lowerLip: number;
  lips: Rgb;
  iris: Rgb;
  hair: Rgb;
  hairStyle: HairStyle;
  /** 0 (young) to 1 (old): lines and greying. */
  age: number;
  /** A moustache and stubble, in every photo of a man who has them. */
  beard: number;
  /** A mole: where across and down the face, or null. */
  mole: [number, number] | null;
}

export interface Shot {
  /** Head turn (radians, + to the viewer's right), nod and tilt. */
  yaw: number;
  pitch: number;
  roll: number;
  /** Where the key light comes from, -1 (left) to 1 (right), and how hard it is. */
  light: number;
  contrast: number;
  smile: number;
  /** Head size and position in the frame. */
  scale: number;
  shiftX: number;
  shiftY: number;
  background: Rgb;
  /** A second background colour for a gradient or a wall edge. */
  backgroundFar: Rgb;
  clothes: Rgb;
  collar: 'shirt' | 'crew' | 'jacket';
  /** Colour of the light, multiplied in (a warm room, daylight, a flash). */
  tint: Rgb;
}

const between = (random: Random, low: number, high: number) => low + (high - low) * random();

export function faceTraits(faceSeed: number, sex: '男' | '女', ageYears: number): FaceTraits {
  const random = seeded(hashOf('face traits', faceSeed));
  const tone = random();
  const skin: Rgb = [Math.round(236 - 50 * tone), Math.round(198 - 62 * tone), Math.round(172 - 70 * tone)];
  const age = Math.max(0, Math.min(1, (ageYears - 25) / 55));
  const grey = age > 0.55 ? (age - 0.55) * 2.2 * random() : 0;
  const dark = between(random, 14, 48);
  const hair: Rgb = [0, 1, 2].map((i) => Math.round(dark + (i === 0 ? 6 : 0) + grey * (170 - dark))) as Rgb;
  const styles: HairStyle[] =
    sex === '男'
      ? ['crop', 'side-part', 'buzz', ...(age > 0.45 ? (['receding', 'receding'] as const) : [])]
      : ['long', 'bob', 'bun', 'long', 'side-part'];
  return {
    skin,
    width: between(random, 0.78, 1.18) * (sex === '男' ? 1.03 : 0.97),
    length: between(random, 0.86, 1.14),
    jaw: between(random, 0.6, 0.98) + (sex === '男' ? 0.04 : -0.03),
    chin: between(random, 0.18, 0.48),
    eyeGap: between(random, 0.3, 0.53),
    eyeWidth: between(random, 0.17, 0.34),
    eyeOpen: between(random, 0.26, 0.55),
    eyeTilt: between(random, -0.1, 0.2),
    eyeLevel: between(random, -0.16, 0.05),
    doubleLid: random() < 0.5,
    browThickness: between(random, 0.025, 0.09) * (sex === '男' ? 1.2 : 0.85),
    browArch: between(random, 0.05, 0.3),
    browLift: between(random, 0.2, 0.32),
    noseLength: between(random, 0.28, 0.56),
    noseWidth: between(random, 0.16, 0.32),
    mouthWidth: between(random, 0.27, 0.58),
    mouthLevel: between(random, 0.54, 0.7),
    upperLip: between(random, 0.025, 0.07),
    lowerLip: between(random, 0.04, 0.1),
    lips: [
      Math.round(between(random, 160, 200)),
      Math.round(between(random, 80, 110)),
      Math.round(between(random, 85, 110)),
    ],
    iris: [
      Math.round(between(random, 40, 80)),
      Math.round(between(random, 25, 50)),
      Math.round(between(random, 15, 30)),
    ],
    hair,
    hairStyle: pick(random, styles),
    age,
    beard: sex === '男' && random() < 0.3 ? between(random, 0.3, 1) : 0,
    mole: random() < 0.35 ? [between(random, -0.6, 0.6), between(random, -0.2, 0.7)] : null,
  };
}

const CLOTHES: Rgb[] = [
  [30, 34, 48],
  [20, 20, 22],
  [230, 230, 228],
  [60, 70, 95],
  [110, 40, 40],
  [80, 90, 80],
  [150, 150, 155],
];

/** The photo on the card: facing the camera, even light, no smile, a plain light background. */
export function cardShot(random: Random): Shot {
  // Near white: printed by multiplying into the card, the background takes the card's own ground.
  const paper = Math.round(between(random, 244, 255));
  return {
    yaw: between(random, -0.04, 0.04),
    pitch: between(random, -0.03, 0.03),
    roll: between(random, -0.03, 0.03),
    light: between(random, -0.3, 0.3),
    contrast: between(random, 0.5, 0.8),
    smile: between(random, 0, 0.12),
    scale: between(random, 0.95, 1.05),
    shiftX: between(random, -4, 4),
    shiftY: between(random, -4, 4),
    background: [paper, paper, paper],
    backgroundFar: [paper, paper, paper],
    clothes: pick(random, CLOTHES),
    collar: pick(random, ['shirt', 'crew', 'jacket'] as const),
    tint: [255, 255, 255],
  };
}

/** Another photo of the same person: turned, lit from the side, smiling or not, framed anyhow. */
export function snapshotShot(random: Random): Shot {
  const wall: Rgb = [0, 0, 0].map(() => Math.round(between(random, 60, 220))) as Rgb;
  const warm = between(random, -1, 1);
  return {
    yaw: between(random, -0.26, 0.26),
    pitch: between(random, -0.1, 0.1),
    roll: between(random, -0.12, 0.12),
    light: between(random, -1, 1),
    contrast: between(random, 0.7, 1.3),
    smile: random() < 0.5 ? between(random, 0.4, 0.8) : between(random, 0, 0.2),
    scale: between(random, 0.8, 1.2),
    shiftX: between(random, -30, 30),
    shiftY: between(random, -20, 25),
    background: wall,
    backgroundFar: wall.map((c) => Math.max(0, Math.min(255, c + between(random, -60, 60)))) as Rgb,
    clothes: pick(random, CLOTHES),
    collar: pick(random, ['shirt', 'crew', 'jacket'] as const),
    tint: [255, Math.round(245 - 10 * warm), Math.round(235 - 35 * warm)],
  };
}
