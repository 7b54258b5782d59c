/**
 * The 公民身份号码 read again where its first reading is unsure: on a photographed card the digits
 * come out at middling probabilities, and one may be lost or misread in one crop of the line and
 * not in another. The line is then read in two more crops (taller, and tighter), and the readings
 * of 18 characters vote per position, each with its mean probability. The vote only chooses
 * among what was read: the number is never changed to make its check character match, so a card
 * printed with a wrong digit reads as printed.
 */
import type { Canvas } from '../../../canvas.js';
import type { Box } from '../../layout.js';
import { normaliseNumber } from '../id-number-read.js';
import { recogniseLine } from './recognise.js';

/** A first reading of 18 characters this sure is taken as it is. */
const SURE = 0.8;
/** The further crops: the line's height grown and shrunk by these shares, its ends given room. */
const VIEWS = [0.3, -0.2];

interface Reading {
  number: string;
  probability: number;
}

async function readIn(card: Canvas, box: Box, grow: number): Promise<Reading> {
  const dy = (grow * box.height) / 2;
  const y = Math.max(0, box.y - dy);
  const x = Math.max(0, box.x - box.height / 2);
  const line = await recogniseLine(card, {
    x,
    y,
    width: Math.min(card.width, box.x + box.width + box.height / 2) - x,
    height: Math.min(card.height, box.y + box.height + dy) - y,
  });
  const chars = line.chars.filter((c) => normaliseNumber(c.char) !== '');
  return {
    number: normaliseNumber(chars.map((c) => c.char).join('')),
    probability: chars.reduce((sum, c) => sum + c.probability, 0) / Math.max(1, chars.length),
  };
}

export async function readNumber(card: Canvas, first: Reading, box: Box | undefined): Promise<string> {
  if (!box || (first.number.length === 18 && first.probability >= SURE)) return first.number;
  const readings = [first];
  for (const grow of VIEWS) readings.push(await readIn(card, box, grow));
  const whole = readings.filter((r) => r.number.length === 18);
  if (whole.length === 0) return first.number;
  let number = '';
  for (let at = 0; at < 18; at++) {
    const votes = new Map<string, number>();
    for (const r of whole) votes.set(r.number[at]!, (votes.get(r.number[at]!) ?? 0) + r.probability);
    number += [...votes.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  }
  return number;
}
