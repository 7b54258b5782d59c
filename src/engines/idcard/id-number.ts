/**
 * The citizen identity number of GB 11643-1999: a 6-digit region code, the date of birth as
 * YYYYMMDD, a 3-digit sequence whose last digit is odd for men and even for women, and an
 * ISO 7064 MOD 11-2 check character ('X' stands for 10). Reading a number states the first rule
 * it breaks, so a reader can say why a card is suspect rather than only that it is.
 */
import { regionOf, type Region } from './regions.js';

export type Sex = '男' | '女';

export interface IdNumberFacts {
  ok: true;
  /** The 18 characters, with a lower-case x made upper-case. */
  number: string;
  region: Region & { code: string };
  /** YYYY-MM-DD. */
  birth: string;
  sex: Sex;
}

export interface IdNumberFault {
  ok: false;
  /** A sentence naming the rule the number breaks. */
  rule: string;
}

/** Weight of position i is 2^(17 - i) mod 11. */
const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const CHECK_CHARACTERS = '10X98765432';

/** The check character for the first 17 digits of a number. */
export function checkDigit(first17: string): string {
  if (!/^\d{17}$/.test(first17)) throw new RangeError('a check digit is computed over exactly 17 digits');
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (first17.charCodeAt(i) - 48) * WEIGHTS[i]!;
  return CHECK_CHARACTERS[sum % 11]!;
}

/** The YYYY-MM-DD of a YYYYMMDD when it is a date of the calendar, else undefined. */
function calendarDate(yyyymmdd: string): string | undefined {
  const year = Number(yyyymmdd.slice(0, 4));
  const month = Number(yyyymmdd.slice(4, 6));
  const day = Number(yyyymmdd.slice(6, 8));
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return undefined;
  return `${yyyymmdd.slice(0, 4)}-${yyyymmdd.slice(4, 6)}-${yyyymmdd.slice(6, 8)}`;
}

/** Today in China (UTC+8), where the cards are issued, as YYYY-MM-DD. */
function chinaToday(now: Date): string {
  return new Date(now.getTime() + 8 * 3600_000).toISOString().slice(0, 10);
}

const fault = (rule: string): IdNumberFault => ({ ok: false, rule });

/** The facts an ID number states, or the first rule it breaks. */
export function parseIdNumber(value: string, now: Date = new Date()): IdNumberFacts | IdNumberFault {
  if (!/^\d{17}[\dXx]$/.test(value))
    return fault('An ID number has 18 characters: 17 digits, then a digit or X.');
  const number = value.toUpperCase();
  const code = number.slice(0, 6);
  const region = regionOf(code);
  if (region === undefined)
    return fault(`The region code ${code} is not in the administrative division table.`);
  const birth = calendarDate(number.slice(6, 14));
  if (birth === undefined) return fault(`The date of birth ${number.slice(6, 14)} is not a real date.`);
  if (birth < '1900-01-01') return fault(`The date of birth ${birth} is before 1900.`);
  if (birth > chinaToday(now)) return fault(`The date of birth ${birth} is in the future.`);
  const check = checkDigit(number.slice(0, 17));
  if (number[17] !== check) return fault(`The check digit should be ${check}, not ${number[17]}.`);
  return {
    ok: true,
    number,
    region: { code, ...region },
    birth,
    sex: Number(number[16]) % 2 === 1 ? '男' : '女',
  };
}
