/**
 * What Tesseract read in each value crop, cleaned to the form the card prints it in: label
 * remnants and specks dropped, look-alike characters mapped back, the date of birth as
 * YYYY-MM-DD. A value that cannot be made into its form is '' (not read).
 */

const HAN = /\p{Script=Han}/u;

/** Middle dots as printed between the parts of a transliterated name. */
const DOTS = /[·•・.。､,，]/g;

export function cleanName(read: string): string {
  const text = read
    .replace(/\s+/g, '')
    .replace(/^姓?名/, '')
    .replace(DOTS, '·');
  const kept = [...text].filter((c) => HAN.test(c) || c === '·').join('');
  return kept.replace(/^·+|·+$/g, '').replace(/·{2,}/g, '·');
}

/** 男 or 女, from the value and a few of their look-alikes; '' when neither or both. */
export function cleanSex(read: string): string {
  const text = read.replace(/^性?别/, '');
  const male = /[男另舅界]/.test(text);
  const female = /[女攵妇如好奴]/.test(text);
  if (male === female) return '';
  return male ? '男' : '女';
}

/** Characters an address may carry besides Chinese: numbers, building letters and their punctuation. */
const ADDRESS_EXTRA = /[0-9A-Z\-－—()（）#·]/;

const DIGIT_LOOK_ALIKES: Readonly<Record<string, string>> = { O: '0', o: '0', l: '1', I: '1', '|': '1' };

/** The address lines joined without spaces, with specks and stray Latin marks dropped. */
export function cleanAddress(lines: readonly string[]): string {
  const text = lines
    .join('')
    .replace(/\s+/g, '')
    .replace(/^住?址/, '');
  const chars = [...text];
  let out = '';
  chars.forEach((char, i) => {
    const nearDigit = /\d/.test(chars[i - 1] ?? '') || /\d/.test(chars[i + 1] ?? '');
    const mapped = nearDigit ? (DIGIT_LOOK_ALIKES[char] ?? char) : char;
    if (HAN.test(mapped) || ADDRESS_EXTRA.test(mapped)) out += mapped;
  });
  return out;
}

const pad = (n: number) => String(n).padStart(2, '0');

function validDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * YYYY-MM-DD from a read of the 出生 value ("1990 年 1 月 8 日"): its year, month and day are the
 * first three groups of digits (年, 月 and 日 between them, or the spaces they leave when the
 * lighter print is not read).
 */
export function cleanBirth(read: string): string {
  // A lone 1 between Chinese characters reads as 工 or 丨 to the Chinese model.
  const text = read.replace(/[Oo]/g, '0').replace(/[lI|丨工]/g, '1');
  const groups = text.match(/\d+/g) ?? [];
  const [year, month, day] = groups.map(Number);
  if (groups.length < 3 || groups[0]!.length !== 4) return '';
  if (!validDate(year!, month!, day!) || year! < 1900) return '';
  return `${year}-${pad(month!)}-${pad(day!)}`;
}

/**
 * Whether a read of the title place is the temporary card's title: most of its characters, in
 * order (a longest common subsequence of at least four of the seven).
 */
export function isTemporaryTitle(read: string, title: string): boolean {
  const a = [...read];
  const b = [...title];
  let previous = new Array<number>(b.length + 1).fill(0);
  for (const char of a) {
    const current = [0];
    for (let j = 1; j <= b.length; j++)
      current.push(char === b[j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, current[j - 1]!));
    previous = current;
  }
  return previous[b.length]! >= Math.min(4, b.length);
}
