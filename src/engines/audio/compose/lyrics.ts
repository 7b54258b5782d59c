/**
 * Lyrics read into sections and sung syllables. Section markers stand on their own lines
 * ("[Verse 2]"); each line is split into the syllables the melody gives one note each: English
 * by vowel groups with the usual silent-e rules, CJK one per character, other scripts by vowel
 * groups or letter clusters. Any text is accepted; what is not a letter is not sung.
 */
import type { SectionKind } from './theory.js';

export interface LyricLine {
  text: string;
  syllables: string[];
}

export interface LyricSection {
  /** As written in the marker, e.g. "Verse 2". */
  name: string;
  kind: SectionKind;
  lines: LyricLine[];
}

const MARKER = /^\s*\[([^\]]{1,60})\]\s*$/;

const KINDS: [RegExp, SectionKind][] = [
  [/^pre\s*-?\s*chorus/, 'prechorus'],
  [/^post\s*-?\s*chorus|^hook/, 'hook'],
  [/^chorus|^refrain/, 'chorus'],
  [/^verse/, 'verse'],
  [/^intro/, 'intro'],
  [/^bridge|^middle/, 'bridge'],
  [/^outro|^end|^coda|^fade/, 'outro'],
  [/^instrumental|^solo|^break|^interlude|^drop|^guitar solo/, 'instrumental'],
];

function kindOf(name: string): SectionKind {
  const lower = name.toLowerCase().trim();
  return KINDS.find(([pattern]) => pattern.test(lower))?.[1] ?? 'other';
}

export function parseLyrics(text: string): LyricSection[] {
  const sections: LyricSection[] = [];
  let current: LyricSection | null = null;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const marker = MARKER.exec(raw);
    if (marker) {
      const name = marker[1]!.trim();
      current = { name, kind: kindOf(name), lines: [] };
      sections.push(current);
      continue;
    }
    const line = raw.replace(/[()[\]{}]/g, ' ').trim();
    if (line === '') continue;
    const sung = syllables(line);
    if (sung.length === 0) continue;
    if (!current) {
      current = { name: 'Verse', kind: 'verse', lines: [] };
      sections.push(current);
    }
    current.lines.push({ text: line, syllables: sung });
  }
  return sections;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const LETTER = /\p{L}/u;
const MARK = /\p{M}/u;
const VOWELS = new Set([...'aeiouyаеёиоуыэюяαεηιουωæøœ']);

/** A letter's base form, without accents, for vowel tests. */
const base = (char: string): string => char.normalize('NFD')[0]!.toLowerCase();

/** The syllables of a line of text, in order; punctuation, emoji and symbols are dropped. */
export function syllables(line: string): string[] {
  return lineWords(line).flat();
}

/**
 * The sung words of a line, each as its syllables: a CJK character or a digit is a word of its
 * own. A singer that says whole words finds here where one word ends and the next begins.
 */
export function lineWords(line: string): string[][] {
  const out: string[][] = [];
  let word = '';
  const flush = () => {
    if (word !== '') out.push(splitWord(word));
    word = '';
  };
  for (const char of line.normalize('NFC')) {
    if (CJK.test(char) || /\p{N}/u.test(char)) {
      flush();
      out.push([char]);
    } else if (
      LETTER.test(char) ||
      (MARK.test(char) && word !== '') ||
      (char === "'" && word !== '') ||
      char === '’'
    ) {
      word += char === '’' ? "'" : char;
    } else {
      flush();
    }
  }
  flush();
  return out;
}

/** Where each vowel group (syllable nucleus) starts and ends, as indices into `lower`. */
function nuclei(lower: string[]): [number, number][] {
  const isVowel = (i: number): boolean => {
    const c = lower[i]!;
    // "y" starts words as a consonant, is a vowel after a consonant ("my", "crying") and joins a
    // vowel before it unless another vowel follows ("day" but "say-ing").
    if (c === 'y') return i > 0 && (!isVowelLetter(lower[i - 1]) || !isVowelLetter(lower[i + 1]));
    if (c === 'u' && lower[i - 1] === 'q') return false;
    return VOWELS.has(c);
  };
  const groups: [number, number][] = [];
  for (let i = 0; i < lower.length; i += 1) {
    if (!isVowel(i)) continue;
    const last = groups[groups.length - 1];
    if (last && last[1] === i - 1 && !splitsFrom(lower, i)) last[1] = i;
    else groups.push([i, i]);
  }
  return groups;
}

const isVowelLetter = (c: string | undefined): boolean => c !== undefined && c !== 'y' && VOWELS.has(c);

/** Two vowels that are sung apart: "pi-a-no", "ac-tu-al", "be-ing", "cry-ing". */
function splitsFrom(lower: string[], i: number): boolean {
  const pair = lower[i - 1]! + lower[i]!;
  const before = lower[i - 2] ?? '';
  if (lower[i] === 'i' && lower[i + 1] === 'n' && lower[i + 2] === 'g' && i + 3 === lower.length) return true;
  if (/^i[aou]$/.test(pair)) return i > 1 && !/[cstxg]/.test(before);
  if (/^u[ao]$/.test(pair)) return !/[qg]/.test(before);
  return false;
}

/** Consonant groups that can open an English syllable, kept together when a word is cut. */
const ONSETS = new Set([
  ...[
    'th',
    'sh',
    'ch',
    'ph',
    'wh',
    'gh',
    'bl',
    'cl',
    'fl',
    'gl',
    'pl',
    'sl',
    'tl',
    'br',
    'cr',
    'dr',
    'fr',
    'gr',
    'pr',
  ],
  ...['tr', 'st', 'sp', 'sk', 'sc', 'sw', 'tw', 'dw', 'str', 'spr', 'scr', 'spl', 'thr', 'shr', 'chr'],
]);
const VIRAMA = /[\u094D\u09CD\u0A4D\u0ACD\u0B4D\u0BCD\u0C4D\u0CCD\u0D4D]$/;
const ABJAD = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}]/u;

/**
 * Syllables of a word written without vowel letters: a letter with its marks each (a virama
 * joins its consonant to the next), or two letters each in scripts that leave vowels unwritten.
 */
function letterSyllables(clusters: string[]): string[] {
  const joined: string[] = [];
  for (const cluster of clusters) {
    const last = joined.length - 1;
    if (last >= 0 && VIRAMA.test(joined[last]!)) joined[last] += cluster;
    else joined.push(cluster);
  }
  if (!ABJAD.test(clusters[0]!)) return joined;
  const paired: string[] = [];
  for (let i = 0; i < joined.length; i += 2) paired.push(joined.slice(i, i + 2).join(''));
  return paired;
}

/** One word's syllables as pieces of the word itself, so the singer still sees every letter. */
function splitWord(word: string): string[] {
  const letters = [...word];
  const lower = letters.map(base);
  const groups = dropSilent(lower, nuclei(lower));
  if (groups.length === 0) {
    // Scripts without written vowels: one syllable per letter with its marks.
    const clusters = word.match(/\p{L}\p{M}*/gu) ?? [];
    return clusters.length === 0 || clusters.every((c) => /^[a-z']+$/i.test(c))
      ? [word]
      : letterSyllables(clusters);
  }
  const pieces: string[] = [];
  let from = 0;
  for (let g = 1; g < groups.length; g += 1) {
    const nextStart = groups[g]![0];
    const cluster = nextStart - groups[g - 1]![1] - 1;
    let cut = nextStart;
    if (cluster === 1) cut = nextStart - 1;
    else if (cluster >= 2) {
      const tail = lower[nextStart - 2]! + lower[nextStart - 1]!;
      const tail3 = (lower[nextStart - 3] ?? '') + tail;
      if (cluster >= 3 && ONSETS.has(tail3)) cut = nextStart - 3;
      else if (ONSETS.has(tail)) cut = nextStart - 2;
      else cut = tail === 'ck' || tail === 'ng' ? nextStart : nextStart - 1;
    }
    pieces.push(letters.slice(from, cut).join(''));
    from = cut;
  }
  pieces.push(letters.slice(from).join(''));
  return pieces.filter((piece) => piece !== '');
}

const SUFFIXES = /^(ly|ful|less|ness|ment|some)$/;

/**
 * English endings that add no syllable: a contraction ("we're"), a silent e ("fire", "smile"),
 * "-ed" and "-es" ("burned", "fires") — but "little", "wanted" and "boxes" keep theirs.
 */
function dropSilent(lower: string[], found: [number, number][]): [number, number][] {
  if (!lower.every((c) => /[a-z']/.test(c))) return found;
  const apostrophe = lower.indexOf("'");
  const kept = apostrophe > 0 ? found.filter((g) => g[0] < apostrophe) : found;
  const groups = kept.length > 0 ? kept : found;
  const stem = apostrophe > 0 ? lower.slice(0, apostrophe) : lower;
  // A silent e inside a word before a suffix: "lone-ly", "care-ful", "move-ment".
  const inner = groups.filter((g, i) => {
    if (i === 0 || g[0] !== g[1] || stem[g[0]] !== 'e') return true;
    const rest = stem.slice(g[0] + 1).join('');
    return !(SUFFIXES.test(rest) && !VOWELS.has(stem[g[0] - 1]!) && VOWELS.has(stem[g[0] - 2] ?? ''));
  });
  if (inner.length < groups.length) return inner;
  const last = groups[groups.length - 1];
  if (groups.length < 2 || !last || last[0] !== last[1] || stem[last[0]] !== 'e') return groups;
  const n = stem.length;
  const consonant = (c: string | undefined) => c !== undefined && !VOWELS.has(c);
  // "-le" after a consonant is its own syllable ("lit-tle", "ta-bles"), after a vowel it is not ("smile").
  const syllabicLe = (at: number) => stem[at] === 'l' && consonant(stem[at - 1]) && stem[at - 1] !== 'l';
  let silent = false;
  if (last[0] === n - 1) silent = consonant(stem[n - 2]) && !syllabicLe(n - 2);
  else if (last[0] === n - 2 && stem[n - 1] === 'd')
    silent = consonant(stem[n - 3]) && !/[td]/.test(stem[n - 3]!);
  else if (last[0] === n - 2 && stem[n - 1] === 's') {
    const before = stem[n - 3];
    silent =
      consonant(before) &&
      !/[sxzcg]/.test(before!) &&
      !(before === 'h' && /[cs]/.test(stem[n - 4] ?? '')) &&
      !syllabicLe(n - 3);
  }
  return silent ? groups.slice(0, -1) : groups;
}
