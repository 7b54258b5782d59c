/**
 * The look a prompt asks of a QR code: a material or a technique (ink and paper, watercolour,
 * neon, marble, wood, mosaic, stained glass, embroidery, pixel art), each with the colours its
 * modules lean to, the shape of its modules and of its finder patterns, and its texture.
 */
import type { Rgb } from '../paint/index.js';
import type { MarkerShape, ModuleShape, SubMarker } from './shapes.js';

export const MATERIALS = [
  'ink',
  'watercolour',
  'neon',
  'marble',
  'wood',
  'mosaic',
  'glass',
  'embroidery',
  'pixel',
] as const;
export type Material = (typeof MATERIALS)[number];

export interface Look {
  material: Material;
  /** What dark modules lean to, and light ones. */
  ink: Rgb;
  paper: Rgb;
  module: ModuleShape;
  finder: MarkerShape;
  alignment: SubMarker;
  /** Dark modules show threads running on the diagonal (satin stitch). */
  threads: boolean;
}

/** The words that ask for each material; the first material a prompt names wins. */
export const MATERIAL_WORDS: Record<Material, readonly string[]> = {
  ink: ['ink', 'paper', 'sumi', 'sumie', 'calligraphy', 'parchment', 'pen', 'etching', 'engraving'],
  watercolour: ['watercolour', 'watercolor', 'aquarelle', 'gouache', 'wash', 'pastel'],
  neon: ['neon', 'cyberpunk', 'synthwave', 'vaporwave', 'laser', 'glowing'],
  marble: ['marble', 'granite', 'stone', 'onyx', 'alabaster', 'statue'],
  wood: ['wood', 'wooden', 'timber', 'carved', 'walnut', 'mahogany', 'grain', 'oak'],
  mosaic: ['mosaic', 'tile', 'tiles', 'tiled', 'terrazzo', 'byzantine'],
  glass: ['stained', 'glass', 'leaded', 'cathedral'],
  embroidery: [
    'embroidery',
    'embroidered',
    'stitch',
    'stitched',
    'needlework',
    'linen',
    'quilt',
    'thread',
    'knitted',
  ],
  pixel: ['pixel', 'pixels', 'bit', 'retro', 'arcade', 'voxel', 'invaders', 'pixelated'],
};

const LOOKS: Record<Material, Omit<Look, 'material'>> = {
  ink: {
    ink: [36, 26, 20],
    paper: [246, 238, 220],
    module: 'blot',
    finder: 'circle',
    alignment: 'circle',
    threads: false,
  },
  watercolour: {
    ink: [40, 44, 84],
    paper: [250, 247, 240],
    module: 'rounded',
    finder: 'circle',
    alignment: 'circle',
    threads: false,
  },
  neon: {
    ink: [10, 6, 24],
    paper: [255, 214, 246],
    module: 'dot',
    finder: 'box',
    alignment: 'circle',
    threads: false,
  },
  marble: {
    ink: [24, 36, 32],
    paper: [244, 242, 238],
    module: 'squircle',
    finder: 'octagon',
    alignment: 'box',
    threads: false,
  },
  wood: {
    ink: [58, 32, 16],
    paper: [240, 208, 160],
    module: 'rounded',
    finder: 'box',
    alignment: 'box',
    threads: false,
  },
  mosaic: {
    ink: [30, 40, 70],
    paper: [246, 240, 226],
    module: 'tile',
    finder: 'square',
    alignment: 'square',
    threads: false,
  },
  glass: {
    ink: [30, 18, 40],
    paper: [250, 240, 210],
    module: 'rounded',
    finder: 'circle',
    alignment: 'circle',
    threads: false,
  },
  embroidery: {
    ink: [120, 24, 40],
    paper: [236, 226, 204],
    module: 'square',
    finder: 'square',
    alignment: 'square',
    threads: true,
  },
  pixel: {
    ink: [20, 16, 44],
    paper: [236, 240, 220],
    module: 'square',
    finder: 'square',
    alignment: 'square',
    threads: false,
  },
};

const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\d]+/gu) ?? [];

/** The look the prompt's words ask for, if any. */
export function lookOf(prompt: string | undefined): Look | undefined {
  const words = wordsOf(prompt ?? '');
  let found: { material: Material; at: number } | undefined;
  for (const material of MATERIALS) {
    const at = words.findIndex((w) => MATERIAL_WORDS[material].includes(w));
    if (at >= 0 && (!found || at < found.at)) found = { material, at };
  }
  return found && { material: found.material, ...LOOKS[found.material] };
}

/** Whether a word is one of the materials' (so no drawing is looked up for it). */
export const isMaterialWord = (word: string) => MATERIALS.some((m) => MATERIAL_WORDS[m].includes(word));
