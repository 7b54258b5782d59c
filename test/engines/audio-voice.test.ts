/**
 * The sung voice of English lyrics: words found again from the melody's syllables, spelled for
 * Festival, written as SINGING markup, sung by Festival and placed on the song's grid at the
 * written pitches; and lyrics in other scripts left to the formant singer. The phrases are a few
 * seconds long, so Festival runs for about a second per test.
 */
import { describe, expect, it } from 'vitest';
import { pitchTrack } from '../../src/engines/audio/analysis/pitch.js';
import { planSong } from '../../src/engines/audio/compose/plan.js';
import { hz } from '../../src/engines/audio/compose/theory.js';
import { SAMPLE_RATE } from '../../src/engines/audio/dsp/pcm.js';
import { singAll } from '../../src/engines/audio/voice/festival.js';
import { singWithFestival } from '../../src/engines/audio/voice/festival-singer.js';
import { sing, voiceFor, type SungNote, type Voice } from '../../src/engines/audio/voice/singer.js';
import { singingXml, type PhraseWord } from '../../src/engines/audio/voice/singing-xml.js';
import { festivalSpelling } from '../../src/engines/audio/voice/spelling.js';
import { sungWords } from '../../src/engines/audio/voice/sung-words.js';
import { singVocalLine } from '../../src/engines/audio/voice/vocal-line.js';

const BPM = 120;
const BEAT = 60 / BPM;

/** Notes on the beat grid: [beat, beats, midi, syllable]. */
const notesOf = (list: [number, number, number, string][]): SungNote[] =>
  list.map(([beat, beats, midi, text]) => ({ start: beat * BEAT, duration: beats * BEAT, midi, text }));

/** Two phrases with a bar's rest between them: "hold the light and let it glow", "carry me home". */
const PHRASES: PhraseWord[] = [
  ['hold', [[1, 1, 50, 'hold']]],
  ['the', [[2, 0.5, 52, 'the']]],
  ['light', [[2.5, 1.5, 54, 'light']]],
  ['and', [[4, 0.5, 55, 'and']]],
  ['let', [[4.5, 0.5, 54, 'let']]],
  ['it', [[5, 0.5, 52, 'it']]],
  ['glow', [[5.5, 2, 50, 'glow']]],
  [
    'carry',
    [
      [11, 1, 57, 'car'],
      [12, 1, 55, 'ry'],
    ],
  ],
  ['me', [[13, 1, 54, 'me']]],
  ['home', [[14, 2, 50, 'home']]],
].map(([spelling, notes]) => ({
  spelling: spelling as string,
  notes: notesOf(notes as [number, number, number, string][]),
}));
const NOTES = PHRASES.flatMap((w) => w.notes);
const FRAMES = Math.round(9 * SAMPLE_RATE);

const male: Voice = { ...voiceFor('m', 1), formantScale: 1 };
const female: Voice = { ...voiceFor('f', 1), formantScale: 1.15 };

const rmsOf = (samples: Float32Array, from: number, to: number) => {
  const [a, b] = [Math.round(from * SAMPLE_RATE), Math.round(to * SAMPLE_RATE)];
  let sum = 0;
  for (let i = a; i < b; i += 1) sum += samples[i]! ** 2;
  return Math.sqrt(sum / Math.max(1, b - a));
};

/** The median pitch over the first 0.25 s of each note, after its first 0.08 s (the consonants). */
function notePitches(samples: Float32Array, notes: readonly SungNote[]): { note: SungNote; cents: number }[] {
  const hop = 0.01;
  const track = pitchTrack(samples, SAMPLE_RATE, { hopSeconds: hop, minHz: 70, maxHz: 700 });
  return notes.map((note) => {
    const from = Math.round((note.start + 0.08) / hop);
    const to = Math.round((note.start + Math.min(note.duration, 0.33)) / hop);
    const voiced = [...track.subarray(from, to)].filter((f) => f > 0).sort((a, b) => a - b);
    const f0 = voiced[voiced.length >> 1] ?? 0;
    return { note, cents: f0 > 0 ? 1200 * Math.log2(f0 / hz(note.midi)) : Infinity };
  });
}

describe('words from the melody', () => {
  const notes = (texts: string[]) => texts.map((text, i) => ({ start: i, duration: 1, midi: 60, text }));

  it('groups the syllables of each lyric word, across lines', () => {
    const words = sungWords(notes(['Ci', 'ty', 'lights', 'cal', 'ling', 'me']), [
      'City lights',
      'calling me',
    ]);
    expect(words.map((w) => [w.text, w.notes.length])).toEqual([
      ['City', 2],
      ['lights', 1],
      ['calling', 2],
      ['me', 1],
    ]);
  });

  it('shares a note that holds several words, skips dropped lines and extends a word by an empty note', () => {
    // The melody joins what does not fit onto a line's last note ("andgold"), a given melody
    // with spaces ("the night"); the line "never sung" was dropped by the form.
    const words = sungWords(notes(['we', 'andgold', '', 'the night', 'is']), [
      'we and gold',
      'never sung',
      'the night is',
    ]);
    expect(words.map((w) => w.text)).toEqual(['we', 'and', 'gold', 'the', 'night', 'is']);
    expect(words[1]!.notes[0]).toMatchObject({ start: 1, duration: 0.5 });
    expect(words[2]!.notes).toHaveLength(2);
    expect(words[4]!.notes[0]).toMatchObject({ start: 3.5, duration: 0.5 });
  });

  it('spells Latin-script words for Festival and refuses other scripts', () => {
    expect(['Café', "dancin'", "Don't", '7', 'STRASSE', 'Straße'].map(festivalSpelling)).toEqual([
      'cafe',
      'dancin',
      "don't",
      'seven',
      'strasse',
      'strasse',
    ]);
    for (const word of ['我', 'любовь', 'こんにちは', "'"]) expect(festivalSpelling(word)).toBeNull();
  });
});

describe('Festival singing', () => {
  it('writes beats per 50 s in SINGING markup, and Festival keeps them (with rests) to 2%', async () => {
    const phrase = PHRASES.slice(0, 7);
    const xml = singingXml(phrase, BPM, 1);
    expect(xml).toContain('<SINGING BPM="100.0000">');
    // "light" is held for 1.5 beats: sung for 0.3 s and half the rest, then released.
    expect(xml).toContain(
      `<DURATION BEATS="1.0500"><PITCH FREQ="${hz(54).toFixed(4)}">light</PITCH></DURATION>`,
    );
    expect(xml).toContain('<REST BEATS="0.4500"></REST>');
    const [sung] = await singAll([{ xml, seconds: 3.5 }]);
    expect(sung!.rate).toBe(16_000);
    expect(Math.abs(sung!.samples.length / sung!.rate / (6.5 * BEAT) - 1)).toBeLessThan(0.02);
  });

  it('sings the phrases where the composition puts them, at the written pitches', async () => {
    const out = await singWithFestival(PHRASES, male, BPM, FRAMES, SAMPLE_RATE);
    expect(out).toHaveLength(FRAMES);
    const loud = rmsOf(out, 0.5, 4);
    // The bar's rest between the phrases, and before the first, is silent.
    expect(rmsOf(out, 0, 0.49)).toBeLessThan(loud * 0.001);
    expect(rmsOf(out, 4.02, 5.48)).toBeLessThan(loud * 0.001);
    // Each note sounds from its start.
    for (const note of NOTES)
      expect(rmsOf(out, note.start, note.start + 0.2), note.text).toBeGreaterThan(loud * 0.1);
    const pitches = notePitches(out, NOTES);
    const near = pitches.filter((p) => Math.abs(p.cents) < 50);
    expect(
      near.length,
      JSON.stringify(pitches.map((p) => [p.note.text, Math.round(p.cents)])),
    ).toBeGreaterThanOrEqual(NOTES.length - 1);
  });

  it('makes the female voice from the male one: the same timing, an octave up', async () => {
    const higher = PHRASES.map((w) => ({ ...w, notes: w.notes.map((n) => ({ ...n, midi: n.midi + 12 })) }));
    const out = await singWithFestival(higher, female, BPM, FRAMES, SAMPLE_RATE);
    expect(out).toHaveLength(FRAMES);
    const loud = rmsOf(out, 0.5, 4);
    expect(rmsOf(out, 4.02, 5.48)).toBeLessThan(loud * 0.001);
    const pitches = notePitches(
      out,
      higher.flatMap((w) => w.notes),
    );
    // Two notes may miss: a short one all consonants, one whose weak fundamental YIN reads an octave up.
    expect(
      pitches.filter((p) => Math.abs(p.cents) < 50).length,
      JSON.stringify(pitches.map((p) => [p.note.text, Math.round(p.cents)])),
    ).toBeGreaterThanOrEqual(NOTES.length - 2);
  });
});

describe('who sings a song', () => {
  const spec = (lyric: string) => ({ seed: 3, style: 'pop, 120 bpm', lyric, voice: male, maxSeconds: 12 });

  it('gives English lyrics to Festival, filling the song to its length', async () => {
    const plan = planSong(spec('[Verse]\nHold the light and let it glow'));
    const frames = Math.round(plan.duration * SAMPLE_RATE);
    const notes = plan.melody.flatMap((n) => (n.text === null ? [] : [{ ...n, text: n.text }]));
    const festival = await singVocalLine(plan, frames, SAMPLE_RATE);
    expect(festival).toHaveLength(frames);
    expect(Buffer.from(festival.buffer).equals(Buffer.from(sing(notes, male, frames).buffer))).toBe(false);
    const first = notes[0]!;
    const last = notes[notes.length - 1]!;
    expect(rmsOf(festival, first.start, last.start + last.duration)).toBeGreaterThan(0.01);
    expect(rmsOf(festival, 0, first.start - 0.01)).toBe(0);
  });

  it('leaves Chinese lyrics to the formant singer', async () => {
    const plan = planSong(spec('[Verse]\n月亮代表我的心'));
    const frames = Math.round(plan.duration * SAMPLE_RATE);
    const notes = plan.melody.flatMap((n) => (n.text === null ? [] : [{ ...n, text: n.text }]));
    expect(notes.length).toBeGreaterThan(5);
    const sung = await singVocalLine(plan, frames, SAMPLE_RATE);
    const formant = sing(notes, plan.voice, frames, SAMPLE_RATE, plan.seed);
    expect(Buffer.from(sung.buffer).equals(Buffer.from(formant.buffer))).toBe(true);
  });
});
