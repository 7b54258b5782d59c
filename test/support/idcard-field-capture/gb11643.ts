/**
 * Citizen identity numbers as GB 11643-1999 defines them: six digits of the registering region,
 * eight of the birth date, a three-digit order code (odd for men, even for women) and a check
 * character by ISO 7064 MOD 11-2. Written here from the standard, apart from the engine's own
 * reading of it, so that the two can disagree.
 */

/** The weights 2^(17-i) mod 11 of the first seventeen digits. */
const WEIGHTS = Array.from({ length: 17 }, (_, i) => 2 ** (17 - i) % 11);
const CHECK_CHARACTERS = '10X98765432';

/** The check character of seventeen digits. */
export function checkCharacter(first17: string): string {
  if (!/^\d{17}$/.test(first17)) throw new Error(`not seventeen digits: ${first17}`);
  let sum = 0;
  for (let i = 0; i < 17; i += 1) sum += Number(first17[i]) * WEIGHTS[i]!;
  return CHECK_CHARACTERS[sum % 11]!;
}

/** Whether a calendar date exists (the Gregorian leap rule included). */
export function isRealDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The number of a holder: region code, birth date (YYYY-MM-DD), order code 0–999 whose parity is made to fit the sex. */
export function identityNumber(region: string, birth: string, order: number, sex: '男' | '女'): string {
  const odd = sex === '男';
  const fitted = order % 2 === (odd ? 1 : 0) ? order : (order + 1) % 1000;
  const first17 = `${region}${birth.replaceAll('-', '')}${String(fitted).padStart(3, '0')}`;
  return first17 + checkCharacter(first17);
}

/** Why a number breaks GB 11643, or null when it keeps every rule. */
export function gb11643Fault(number: string): string | null {
  if (!/^\d{17}[\dX]$/.test(number)) return 'not 17 digits and a digit or X';
  if (!/^[1-9]\d{5}$/.test(number.slice(0, 6))) return 'region code';
  const [year, month, day] = [number.slice(6, 10), number.slice(10, 12), number.slice(12, 14)].map(Number);
  if (!isRealDate(year!, month!, day!) || year! < 1900) return 'birth date';
  if (checkCharacter(number.slice(0, 17)) !== number[17]) return 'check character';
  return null;
}

/** How a printed number is made to break the standard, for the cards a reader must reject. */
export type Forgery = 'check-character' | 'impossible-date';

/**
 * The number with one rule broken: another check character, or a birth date that no calendar
 * has (31 April, 30 February, 29 February of a common year, month 13), its check character
 * recomputed so that only the date is wrong.
 */
export function forge(number: string, how: Forgery, pick: number): string {
  if (how === 'check-character') {
    const right = number[17]!;
    const others = [...CHECK_CHARACTERS].filter((c) => c !== right);
    return number.slice(0, 17) + others[Math.floor(pick * others.length) % others.length]!;
  }
  const year = Number(number.slice(6, 10));
  const commonYear = isRealDate(year, 2, 29) ? year + 1 : year;
  const dates = [`${year}0431`, `${year}0230`, `${commonYear}0229`, `${year}1301`, `${year}0600`];
  const date = dates[Math.floor(pick * dates.length) % dates.length]!;
  const first17 = number.slice(0, 6) + date + number.slice(14, 17);
  return first17 + checkCharacter(first17);
}
