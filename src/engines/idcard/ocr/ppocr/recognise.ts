/**
 * PP-OCRv4 text recognition of one line: the line's crop scaled to the recogniser's height of 48
 * pixels, read as a sequence of character probabilities every 8 pixels and decoded by CTC
 * (the most likely class at each step, repeats merged, blanks dropped; a character nearly as
 * likely as the blank counts). Each character keeps its
 * probability and where on the card it was read, so that a line holding a label and its value
 * can be split between them.
 */
import type { Canvas } from '../../../canvas.js';
import type { Box } from '../../layout.js';
import { textModels } from './models.js';

const LINE_HEIGHT = 48;
/** The recogniser's step: one output column per this many input pixels. */
const STEP = 8;
/** Longer lines are squeezed to this width (a card's longest, the address, is about 20:1). */
const MAX_WIDTH = 1600;
/**
 * Shorter lines are padded to this width with the middle grey, as the recogniser was trained:
 * without room after it, the last character of a short name is lost.
 */
const MIN_WIDTH = 320;
/**
 * A character this probable at a step is read even where the blank is a little more probable:
 * a rare, dense character (鑫) comes out of the model at about even odds with the blank.
 */
const CHARACTER_FLOOR = 0.3;
/** A character this probable at the step another was read at is kept as an alternative. */
const ALTERNATIVE_FLOOR = 0.02;

export interface LineChar {
  char: string;
  /** The recogniser's probability, 0–1. */
  probability: number;
  /** The middle of the character across the card. */
  x: number;
  /**
   * Other characters the recogniser found likely at that step (look-alikes: 士 for 土, 何 for 侗),
   * for matching what was read against a closed list.
   */
  alternatives: readonly string[];
}

export interface ReadLine {
  box: Box;
  chars: LineChar[];
}

/** The crop as the recogniser's input: height 48, channels first in B, G, R order, in −1…1. */
function recogniserInput(card: Canvas, box: Box): { data: Float32Array; width: number; padded: number } {
  const width = Math.max(STEP, Math.min(MAX_WIDTH, Math.round((box.width * LINE_HEIGHT) / box.height)));
  const padded = Math.max(width, MIN_WIDTH);
  const data = new Float32Array(3 * LINE_HEIGHT * padded);
  const sx = box.width / width;
  const sy = box.height / LINE_HEIGHT;
  for (let y = 0; y < LINE_HEIGHT; y++) {
    const fy = Math.min(card.height - 1, Math.max(0, box.y + (y + 0.5) * sy - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(card.height - 1, y0 + 1);
    const wy = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(card.width - 1, Math.max(0, box.x + (x + 0.5) * sx - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(card.width - 1, x0 + 1);
      const wx = fx - x0;
      for (let c = 0; c < 3; c++) {
        const at = (xx: number, yy: number) => card.data[(yy * card.width + xx) * 4 + (2 - c)]!;
        const top = at(x0, y0) * (1 - wx) + at(x1, y0) * wx;
        const bottom = at(x0, y1) * (1 - wx) + at(x1, y1) * wx;
        data[c * LINE_HEIGHT * padded + y * padded + x] = (top * (1 - wy) + bottom * wy) / 127.5 - 1;
      }
    }
  }
  return { data, width, padded };
}

/** Reads the line in `box` of the card. */
export async function recogniseLine(card: Canvas, box: Box): Promise<ReadLine> {
  const { recogniser, characters, Tensor } = await textModels();
  const { data, width, padded } = recogniserInput(card, box);
  const input = new Tensor('float32', data, [1, 3, LINE_HEIGHT, padded]);
  const output = (await recogniser.run({ [recogniser.inputNames[0]!]: input }))[recogniser.outputNames[0]!]!;
  const [, steps, classes] = output.dims as [number, number, number];
  const probabilities = output.data as Float32Array;
  const chars: LineChar[] = [];
  let previous = 0;
  for (let t = 0; t < steps; t++) {
    const at = t * classes;
    let best = 1;
    for (let k = 2; k < classes; k++) if (probabilities[at + k]! > probabilities[at + best]!) best = k;
    const probability = probabilities[at + best]!;
    const read = probability >= probabilities[at]! || probability >= CHARACTER_FLOOR ? best : 0;
    if (read !== 0 && read !== previous) {
      // Full-width digits and letters are read as their plain forms.
      const char = (characters[read - 1] ?? '').normalize('NFKC');
      const x = box.x + ((t + 0.5) * STEP * box.width) / width;
      const alternatives: string[] = [];
      for (let k = 1; k < classes; k++)
        if (k !== read && probabilities[at + k]! >= ALTERNATIVE_FLOOR)
          alternatives.push((characters[k - 1] ?? '').normalize('NFKC'));
      chars.push({ char, probability, x, alternatives });
    }
    previous = read;
  }
  return { box, chars };
}
