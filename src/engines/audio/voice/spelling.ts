/**
 * A sung word as Festival's English voice is given it: lower case (capitals would be read as
 * letters to spell out), plain Latin letters (accents dropped: English letter-to-sound rules
 * cover any spelling), digits as number words, and no apostrophes at the edges ("dancin'").
 * Words in other scripts have no spelling: the lexicon and its rules cannot say them.
 */
const DIGITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const LIGATURES: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ł: 'l', ı: 'i' };
const LATIN = /^[\p{Script=Latin}\p{M}\d']+$/u;

/** The word for Festival, or null when it is not written in Latin letters (or digits). */
export function festivalSpelling(word: string): string | null {
  if (!LATIN.test(word)) return null;
  if (/^\d$/.test(word)) return DIGITS[Number(word)]!;
  const plain = [...word.normalize('NFD').toLowerCase()]
    .map((char) => LIGATURES[char] ?? char)
    .join('')
    .replace(/[^a-z']/g, '')
    .replace(/^'+|'+$/g, '');
  return /[a-z]/.test(plain) ? plain : null;
}
