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
