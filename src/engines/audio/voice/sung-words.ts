/**
 * The words of a sung line. The melody carries one syllable a note and forgets where words
 * end; a singer that says whole words (Festival) needs them back. They are found by walking the
 * notes along the syllables of the plan's lyric lines: a note whose syllable is next in the lyric
 * takes that syllable's word; one that holds several (the melody joins the syllables that do not
 * fit a line onto its last note) is shared between their words; one that is not next (a line the
 * form dropped) is looked for further on.
 */
import { lineWords } from '../compose/lyrics.js';
import type { SungNote } from './singer.js';

export interface SungWord {
  /** The whole word as the lyric writes it. */
  text: string;
  /** In time order; a melisma has several. */
  notes: SungNote[];
}

interface LyricSyllable {
  text: string;
  word: number;
}

/** The syllables of every line in order, each knowing its word; and the words' texts. */
function lyricSyllables(lines: readonly string[]): { syllables: LyricSyllable[]; words: string[] } {
  const syllables: LyricSyllable[] = [];
  const words: string[] = [];
  for (const line of lines) {
    for (const word of lineWords(line)) {
      for (const text of word) syllables.push({ text, word: words.length });
      words.push(word.join(''));
    }
  }
  return { syllables, words };
}

/** Where the syllables from `at` spell exactly `text`: the index after the last one, or -1. */
function spelledUntil(syllables: readonly LyricSyllable[], at: number, text: string): number {
  let spelled = '';
  for (let i = at; i < syllables.length && spelled.length < text.length; i += 1) {
    spelled += syllables[i]!.text;
    if (spelled === text) return i + 1;
  }
  return -1;
}

/** The sung notes grouped into words, in time order; `lines` are the lyric lines the melody was written for. */
export function sungWords(notes: readonly SungNote[], lines: readonly string[]): SungWord[] {
  const lyric = lyricSyllables(lines);
  const out: SungWord[] = [];
  const byWord = new Map<number, SungWord>();
  const wordOf = (index: number): SungWord => {
    let word = byWord.get(index);
    if (!word) {
      word = { text: lyric.words[index]!, notes: [] };
      byWord.set(index, word);
      out.push(word);
    }
    return word;
  };
  let next = 0;
  const sorted = [...notes].filter((n) => n.duration > 0).sort((a, b) => a.start - b.start);
  for (const note of sorted) {
    // A note without a syllable carries on the vowel before it.
    if (note.text.trim() === '') {
      out.at(-1)?.notes.push(note);
      continue;
    }
    const text = note.text.replace(/\s+/g, '');
    let from = next;
    let to = spelledUntil(lyric.syllables, from, text);
    while (to < 0 && from + 1 < lyric.syllables.length) {
      from += 1;
      to = spelledUntil(lyric.syllables, from, text);
    }
    if (to < 0) {
      out.push({ text, notes: [note] });
      continue;
    }
    next = to;
    const words = [...new Set(lyric.syllables.slice(from, to).map((s) => s.word))];
    const share = note.duration / words.length;
    words.forEach((index, i) =>
      wordOf(index).notes.push({ ...note, start: note.start + i * share, duration: share }),
    );
  }
  return out;
}
