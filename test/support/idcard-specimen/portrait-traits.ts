/**
 * What a drawn portrait is made of, split the way photographs of one person differ: identity
 * traits (the shape of the face, skin, hair, eyes, brows, nose, mouth, glasses, and the clothes
 * and backdrop the holder wears and chooses for ID photos) come from the person's seed and stay;
 * incidental ones (framing, head tilt, light, exposure, the backdrop's exact tint, expression)
 * come from the photo's variant and change between photographs.
 */
import { hashOf, pick, seeded, type Random } from '../../../src/engines/random.js';

export type Rgb = readonly [number, number, number];

export type HairStyle = 'short' | 'parted' | 'fringe' | 'long' | 'bob' | 'receding' | 'curly';

export interface Identity {
  /** Half-width of the face at the cheeks, px. */
  faceWidth: number;
  /** Crown of the forehead to the chin, px. */
  faceHeight: number;
  /** 0 a round jaw, 1 a square one. */
  jaw: number;
  /** Half-width of the chin, px. */
  chin: number;
  skin: Rgb;
  hairStyle: HairStyle;
  hair: Rgb;
  /** Forehead height as a share of the face height. */
  hairline: number;
  /** Half the distance between the eye centres, px. */
  eyeSpacing: number;
  /** Half-width of an eye, px. */
  eyeSize: number;
  /** How open the eyes are, height over width. */
  eyeOpening: number;
  /** The eyes' height as a share of the face height from the crown. */
  eyeLevel: number;
  iris: Rgb;
  browWeight: number;
  browArch: number;
  /** Inner brow ends up (negative) or down (positive), px. */
  browSlant: number;
  /** Eye line to nose tip as a share of the face height. */
  noseLength: number;
  noseWidth: number;
  mouthWidth: number;
  lipHeight: number;
  lips: Rgb;
  earSize: number;
  glasses: { round: boolean; frame: Rgb; weight: number } | null;
  clothes: Rgb;
  shirt: Rgb;
  /** White or light blue. */
  backdrop: Rgb;
}

export interface Incidental {
  dx: number;
  dy: number;
  scale: number;
  /** Head roll, radians. */
  tilt: number;
  /** Where the light comes from, -1 left to 1 right. */
  light: number;
  /** Overall exposure factor. */
  exposure: number;
  /** The backdrop as this photograph shows it. */
  background: Rgb;
  /** Corners of the mouth up (positive) or down, px. */
  smile: number;
  /** Eye opening factor for this photograph. */
  blink: number;
}

const SKIN: readonly Rgb[] = [
  [247, 220, 196],
  [238, 203, 173],
  [226, 186, 152],
  [214, 168, 130],
  [196, 148, 110],
  [172, 124, 90],
  [141, 98, 70],
];
const HAIR: readonly Rgb[] = [
  [22, 20, 22],
  [34, 28, 26],
  [52, 38, 30],
  [78, 56, 40],
  [110, 104, 100],
  [168, 164, 160],
];
const IRIS: readonly Rgb[] = [
  [48, 32, 24],
  [70, 46, 30],
  [36, 30, 28],
];
const HAIR_STYLES: readonly HairStyle[] = ['short', 'parted', 'fringe', 'long', 'bob', 'receding', 'curly'];
const CLOTHES: readonly Rgb[] = [
  [30, 34, 48],
  [40, 40, 42],
  [60, 70, 96],
  [88, 40, 44],
  [52, 70, 58],
  [200, 200, 204],
];

const span = (random: Random, low: number, high: number) => low + (high - low) * random();
const jitter = (random: Random, rgb: Rgb, amount: number): Rgb =>
  rgb.map((c) => Math.max(0, Math.min(255, Math.round(c + span(random, -amount, amount))))) as unknown as Rgb;

export function identityOf(seed: number): Identity {
  const random = seeded(hashOf('portrait identity', seed));
  const skin = jitter(random, pick(random, SKIN), 8);
  const faceWidth = span(random, 64, 80);
  const eyeSize = span(random, 12, 16.5);
  return {
    faceWidth,
    faceHeight: span(random, 188, 222),
    jaw: random(),
    chin: span(random, 12, 28),
    skin,
    hairStyle: pick(random, HAIR_STYLES),
    hair: jitter(random, pick(random, HAIR), 6),
    hairline: span(random, 0.17, 0.27),
    eyeSpacing: span(random, 0.38, 0.48) * faceWidth,
    eyeSize,
    eyeOpening: span(random, 0.32, 0.52),
    eyeLevel: span(random, 0.43, 0.5),
    iris: pick(random, IRIS),
    browWeight: span(random, 3, 7.5),
    browArch: span(random, 1, 8),
    browSlant: span(random, -5, 4),
    noseLength: span(random, 0.17, 0.25),
    noseWidth: span(random, 11, 19),
    mouthWidth: span(random, 19, 31),
    lipHeight: span(random, 3, 7),
    lips: [Math.round(skin[0] * 0.82 + 30), Math.round(skin[1] * 0.6), Math.round(skin[2] * 0.6)],
    earSize: span(random, 0.85, 1.15),
    glasses:
      random() < 0.25
        ? {
            round: random() < 0.5,
            frame: pick(random, [
              [20, 20, 24],
              [90, 60, 40],
              [150, 150, 156],
            ] as const),
            weight: span(random, 1.6, 3.4),
          }
        : null,
    clothes: pick(random, CLOTHES),
    shirt: random() < 0.6 ? [244, 244, 240] : [206, 216, 232],
    backdrop: random() < 0.5 ? [214, 234, 250] : [248, 248, 250],
  };
}

export function incidentalOf(seed: number, variant: number, backdrop: Rgb): Incidental {
  const random = seeded(hashOf(`portrait variant ${variant}`, seed));
  const tint = span(random, -6, 6);
  return {
    dx: span(random, -7, 7),
    dy: span(random, -7, 7),
    scale: span(random, 0.96, 1.04),
    tilt: span(random, -0.045, 0.045),
    light: span(random, -1, 1),
    exposure: span(random, 0.95, 1.05),
    background: backdrop.map((c, i) =>
      Math.min(255, Math.round(c + tint * (i === 2 ? 0.5 : 1))),
    ) as unknown as Rgb,
    smile: span(random, -1.5, 4),
    blink: span(random, 0.88, 1.08),
  };
}
