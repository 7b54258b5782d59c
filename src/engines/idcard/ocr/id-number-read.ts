/**
 * The 公民身份号码 as read: letters Tesseract mistakes for digits mapped back, nothing more. The
 * number is never changed to make its check character match: a card printed with a wrong check
 * digit must read as printed, since a number that does not check is what a forged card looks
 * like, and any one of its digits could be changed to make it check. Where a digit is uncertain
 * the reader reads it again in other views (read-values.ts), and those readings vote.
 */
import { checkDigit } from '../id-number.js';

const LOOK_ALIKE_DIGITS: Readonly<Record<string, string>> = {
  O: '0',
  o: '0',
  D: '0',
  Q: '0',
  U: '0',
  I: '1',
  l: '1',
  i: '1',
  '|': '1',
  '!': '1',
  J: '1',
  Z: '2',
  z: '2',
  S: '5',
  s: '5',
  G: '6',
  b: '6',
  T: '7',
  B: '8',
  g: '9',
  q: '9',
  x: 'X',
  K: 'X',
  '×': 'X',
};

/** The characters of a read number: look-alike letters made digits, everything else dropped. */
export function normaliseNumber(read: string): string {
  let text = '';
  for (const char of read) {
    const mapped = /[0-9X]/.test(char) ? char : LOOK_ALIKE_DIGITS[char];
    if (mapped) text += mapped;
  }
  return text;
}

export function checks(number: string): boolean {
  return /^\d{17}[\dX]$/.test(number) && checkDigit(number.slice(0, 17)) === number[17];
}
