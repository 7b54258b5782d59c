/**
 * Every text line on the rectified card, found by the detector and read by the recogniser. Boxes
 * side by side at one height (a label and its value, the groups of the date) are read as one
 * line: the recogniser's cost is in its width, padded to 320 pixels, and in its runs, so a
 * label and a short value read together cost a third of reading them apart.
 */
import type { Canvas } from '../../../canvas.js';
import type { Box } from '../../layout.js';
import { detectLines } from './detect.js';
import { recogniseLine, type ReadLine } from './recognise.js';

/**
 * Boxes further apart than this many line heights are read apart: a photo's detail beside a
 * value, or the number set well apart from its label (read together, a mark between them can
 * come back as a digit).
 */
const JOIN_GAP = 1.5;
/**
 * Each line is read with this many heights of margin on both sides: the detector's box ends at
 * the last stroke, and without room after it the recogniser drops a dense last character (鑫).
 */
const MARGIN = 0.3;

const middle = (box: Box) => box.y + box.height / 2;

/** Boxes at one height and close side by side, merged into one. */
function joined(boxes: readonly Box[]): Box[] {
  const lines: Box[] = [];
  for (const box of [...boxes].sort((a, b) => a.x - b.x)) {
    const at = lines.findIndex(
      (line) =>
        Math.abs(middle(line) - middle(box)) < Math.min(line.height, box.height) / 2 &&
        box.x - (line.x + line.width) < JOIN_GAP * Math.min(line.height, box.height),
    );
    const line = lines[at];
    if (!line) {
      lines.push(box);
      continue;
    }
    const y = Math.min(line.y, box.y);
    lines[at] = {
      x: line.x,
      y,
      width: Math.max(line.x + line.width, box.x + box.width) - line.x,
      height: Math.max(line.y + line.height, box.y + box.height) - y,
    };
  }
  return lines;
}

export async function readLines(card: Canvas, signal?: AbortSignal): Promise<ReadLine[]> {
  const lines: ReadLine[] = [];
  for (const box of joined(await detectLines(card))) {
    signal?.throwIfAborted();
    const x = Math.max(0, box.x - MARGIN * box.height);
    const right = Math.min(card.width, box.x + box.width + MARGIN * box.height);
    const line = await recogniseLine(card, { ...box, x, width: right - x });
    if (line.chars.length > 0) lines.push(line);
  }
  return lines;
}
