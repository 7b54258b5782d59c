/**
 * A sung phrase written in Festival's SINGING markup: each word with the beats and frequencies
 * of its notes, a rest where the melody breathes between words. Festival's singing mode counts
 * its BPM in beats per 50 seconds, not per minute (singing-mode.scm divides by 50), so the
 * attribute is the song's tempo times 50/60 and the beats are the song's beats.
 *
 * `scale` stretches time and lowers pitch by the same factor: played back that much faster
 * (resampled), the phrase keeps its timing and pitch while the voice's formants rise with it,
 * which is how the male diphone voice gets a shorter, female vocal tract.
 */
import { hz } from '../compose/theory.js';
import type { SungNote } from './singer.js';

export interface PhraseWord {
  /** As Festival is to read it (spelling.ts). */
  spelling: string;
  notes: SungNote[];
}

/** A gap shorter than this inside a phrase is sung through (held) rather than rested. */
const SHORTEST_REST = 0.02;
/**
 * How long the last note of a word is sung: in full up to HOLD seconds, and half of what is
 * longer, then released into a rest; a note still sounds for more than half its length. Long
 * held vowels were where a recogniser lost most words: on bench/music-realism.mjs releasing them
 * raised the share of words pocketsphinx made out from 36% to 58%, mostly in the slow songs.
 */
const HOLD = 0.3;
const released = (seconds: number) => (seconds <= HOLD ? seconds : HOLD + (seconds - HOLD) / 2);

/** The SINGING document for `words` (in time order) at `bpm`; it lasts from the first note's start to the last one's end. */
export function singingXml(words: readonly PhraseWord[], bpm: number, scale: number): string {
  const beats = (seconds: number) => ((seconds * bpm) / 60) * scale;
  const number = (value: number) => value.toFixed(4);
  const starts = words.flatMap((word) => word.notes.map((note) => note.start));
  let index = 0;
  const lines = words.map((word) => {
    const durations: number[] = [];
    let rest = 0;
    word.notes.forEach((note, i) => {
      // Each note lasts until the next one starts: gaps inside a word are sung through.
      index += 1;
      const span = index < starts.length ? starts[index]! - note.start : note.duration;
      if (i < word.notes.length - 1) return durations.push(span);
      const sung = Math.min(span, released(note.duration));
      durations.push(sung);
      rest = span - sung;
    });
    if (rest < SHORTEST_REST) durations[durations.length - 1]! += rest;
    const beatList = durations.map((d) => number(beats(Math.max(d, 0.01)))).join(',');
    const freqs = word.notes.map((n) => number(hz(n.midi) / scale)).join(',');
    const sung = `<DURATION BEATS="${beatList}"><PITCH FREQ="${freqs}">${word.spelling}</PITCH></DURATION>`;
    return rest >= SHORTEST_REST ? `${sung}<REST BEATS="${number(beats(rest))}"></REST>` : sung;
  });
  return [
    '<?xml version="1.0"?>',
    '<!DOCTYPE SINGING PUBLIC "-//SINGING//DTD SINGING mark up//EN" "Singing.v0_1.dtd" []>',
    `<SINGING BPM="${number((bpm * 50) / 60)}">`,
    ...lines,
    '</SINGING>',
    '',
  ].join('\n');
}
