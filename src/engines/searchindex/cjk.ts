/**
 * unicode61 keeps a run of Chinese or Japanese characters as one token, so "東京" would only
 * match the whole run "東京都庁". Putting a zero-width space (a separator to unicode61, being
 * neither letter nor digit) around every CJK character, at index and at query time, makes each
 * character a token; a query run becomes a phrase of adjacent characters. Removing the marks
 * restores the text exactly, so snippets read as written.
 */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_CHAR = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}])/gu;
const MARK = '\u200b';

export function hasCjk(text: string): boolean {
  return CJK.test(text);
}

/** Text as the index stores it: CJK characters set apart by zero-width spaces. */
export function spaceCjk(text: string): string {
  return hasCjk(text) ? text.replace(CJK_CHAR, `${MARK}$1${MARK}`) : text;
}

/** Undoes spaceCjk, for snippets shown to people. */
export function joinCjk(text: string): string {
  return text.replaceAll(MARK, '');
}

/** One query word as tokens: each CJK character alone, other letters and digits kept in runs. */
export function cjkTokens(word: string): string[] {
  return spaceCjk(word)
    .split(MARK)
    .filter((token) => token.length > 0);
}

const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;

/**
 * How many tokens the index's tokenizer makes of a text: runs of letters, digits and private-use
 * characters (unicode61's token characters), each CJK character alone. Kept per document for
 * BM25's length normalisation, which the index computes without reading the postings.
 */
export function tokenCount(text: string): number {
  let count = 0;
  for (const run of text.match(TOKEN) ?? [])
    count += hasCjk(run) ? spaceCjk(run).split(MARK).filter(Boolean).length : 1;
  return count;
}
