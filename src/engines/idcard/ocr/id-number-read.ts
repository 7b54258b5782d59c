/**
 * The 公民身份号码 as read: letters Tesseract mistakes for digits mapped back, and, when the check
 * character does not match, one-character repairs that would make it match, taken only when one
 * of them is clearly the misread character (it restores the printed date of birth, or it is the
 * only look-alike digit that gives a number that could be issued). Otherwise the number stays as
 * read, check failure and all: a number that does not check is what a forged card looks like.
 */
import { checkDigit, parseIdNumber } from '../id-number.js';

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

/** Digit pairs a recogniser confuses on this print: a repair to one of these is plausible. */
const CONFUSABLE = new Set([
  '08',
  '06',
  '09',
  '17',
  '38',
  '56',
  '58',
  '68',
  '89',
  '27',
  '35',
  '49',
  '1X',
  '7X',
]);

const confusable = (a: string, b: string) => CONFUSABLE.has(a < b ? a + b : b + a);

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

export interface NumberReading {
  number: string;
  /** The number was changed in one character to make its check character match. */
  repaired: boolean;
}

/**
 * `read` (18 characters after normalising) repaired where a single misread character explains the
 * check failure. `printedBirth` is the card's printed date of birth (YYYY-MM-DD) or ''.
 */
export function repairNumber(read: string, printedBirth: string): NumberReading {
  const number = normaliseNumber(read);
  if (number.length !== 18 || checks(number)) return { number, repaired: false };
  const birthDigits = printedBirth.replaceAll('-', '');
  const holdsBirth = (n: string) => birthDigits.length === 8 && n.slice(6, 14) === birthDigits;
  const candidates: { number: string; lookAlike: boolean }[] = [];
  for (let i = 0; i < 18; i++) {
    for (const char of i === 17 ? '0123456789X' : '0123456789') {
      if (char === number[i]) continue;
      const candidate = number.slice(0, i) + char + number.slice(i + 1);
      if (checks(candidate)) candidates.push({ number: candidate, lookAlike: confusable(number[i]!, char) });
    }
  }
  // A repair must give a number that could be issued: a region in the table, a real date.
  const wellFormed = candidates.filter((c) => parseIdNumber(c.number).ok);
  // One changed digit that makes both the check and the printed date of birth agree.
  const restoringBirth = holdsBirth(number) ? [] : wellFormed.filter((c) => holdsBirth(c.number));
  if (restoringBirth.length === 1) return { number: restoringBirth[0]!.number, repaired: true };
  const plausible = wellFormed.filter((c) => c.lookAlike && (holdsBirth(c.number) || !holdsBirth(number)));
  if (plausible.length === 1) return { number: plausible[0]!.number, repaired: true };
  return { number, repaired: false };
}
