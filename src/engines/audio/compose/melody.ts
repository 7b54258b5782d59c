/**
 * Melody writing: one note a syllable for a sung line, or a motif for a played one. Rhythm
 * spreads the syllables over the line's bars with a held last note and a breath after it;
 * pitch walks the scale by steps towards a phrase contour, lands on chord tones on strong beats
 * and resolves at line ends. Weirdness bends notes off the scale and throws odd leaps and
 * triplets in.
 */
import { pick, seeded, type Random } from '../../random.js';
import { pc, scaleOf, chordIntervals, type Mode, type Quality } from './theory.js';

export interface MelodyNote {
  /** Beats from the plan's first bar line. */
  beat: number;
  beats: number;
  midi: number;
  text: string | null;
}

export interface MelodyKey {
  root: number;
  mode: Mode;
  /** MIDI note of the tonic the line is centred on. */
  tonic: number;
  beatsPerBar: number;
  weirdness: number;
  chordAt: (beat: number) => { root: number; quality: Quality };
}

/** Where a phrase starts, in scale steps above the tonic, by kind of section: choruses start higher. */
const STARTS: Record<string, number[]> = {
  verse: [0, 2, 4, -1],
  chorus: [4, 5, 7, 2],
  bridge: [3, 5, 1],
  other: [2, 4, 0],
};
type Contour = 'arch' | 'rise' | 'fall' | 'wave';
const CONTOURS: Contour[] = ['arch', 'rise', 'fall', 'wave'];

function shape(contour: Contour, x: number): number {
  switch (contour) {
    case 'arch':
      return Math.sin(Math.PI * x);
    case 'rise':
      return x;
    case 'fall':
      return 1 - x;
    case 'wave':
      return 0.5 + 0.5 * Math.sin(2 * Math.PI * x);
  }
}

/** Note lengths in beats for `count` notes over `length` beats: even steps, a held last note, accents by seed. */
function rhythm(count: number, length: number, random: Random, weirdness: number): number[] {
  const triplets = random() < weirdness * 0.4;
  let step = triplets ? 1 / 3 : 0.5;
  if (count > Math.round(length / step)) step = 0.25;
  const slots = Math.max(count, Math.round(length / step));
  const units = new Array<number>(count).fill(1);
  let extra = slots - count;
  const held = Math.min(extra, Math.max(1, Math.round(slots / 4)));
  units[count - 1]! += held;
  extra -= held;
  const weights = units.map((_, i) => (i % 2 === 0 ? 2 : 1) * (0.3 + random()));
  const total = weights.reduce((a, b) => a + b, 0);
  for (; extra > 0; extra -= 1) {
    let r = random() * total;
    let i = 0;
    while (i < count - 1 && r > weights[i]!) r -= weights[i++]!;
    units[i]! += 1;
  }
  return units.map((u) => u * step);
}

function midiAt(key: MelodyKey, step: number): number {
  const scale = scaleOf(0, key.mode);
  const octave = Math.floor(step / 7);
  return key.tonic + 12 * octave + scale[((step % 7) + 7) % 7]!;
}

/** The scale step nearest `target` whose note belongs to the chord. */
function chordStep(key: MelodyKey, target: number, beat: number): number {
  const chord = key.chordAt(beat);
  const tones = new Set(chordIntervals(chord.quality).map((i) => (chord.root + i) % 12));
  for (let d = 0; d < 4; d += 1) {
    for (const s of [target - d, target + d]) if (tones.has(pc(midiAt(key, s)))) return s;
  }
  return target;
}

/** Pitches for notes at the given beats: a contour walk with chord tones on strong beats. */
function pitches(
  key: MelodyKey,
  beats: number[],
  start: number,
  random: Random,
  resolve: 'tonic' | 'chord',
): number[] {
  const contour = pick(random, CONTOURS);
  const span = 2 + Math.floor(random() * 3);
  const out: number[] = [];
  let step = start;
  beats.forEach((beat, i) => {
    const x = beats.length > 1 ? i / (beats.length - 1) : 0;
    const target = start + shape(contour, x) * span;
    if (i > 0) {
      const pull = Math.max(-2, Math.min(2, Math.round(target - step)));
      const wobble = random() < 0.35 ? pick(random, [-1, 1]) : 0;
      const leap = random() < 0.12 ? pick(random, [-3, 3, 4]) : 0;
      step += leap !== 0 ? leap : pull + wobble;
    }
    const strong = Math.abs(beat - Math.round(beat)) < 1e-6;
    if (strong || i === beats.length - 1) step = chordStep(key, step, beat);
    if (i === beats.length - 1 && resolve === 'tonic') step = Math.round(step / 7) * 7;
    step = Math.max(-3, Math.min(8, step));
    out.push(midiAt(key, step));
  });
  return out.map((midi) => bend(key, midi, random));
}

/** Weirdness: a note off the scale or an odd leap, more often the weirder the song. */
function bend(key: MelodyKey, midi: number, random: Random): number {
  const w = key.weirdness;
  if (w <= 0) return midi;
  const scale = new Set(scaleOf(key.root, key.mode));
  let out = midi;
  if (random() < w * 0.2) out += pick(random, [6, -6, 10, -11, 13]);
  if (random() < w * 0.6) {
    const up = out + 1;
    out = scale.has(pc(up)) ? out - 1 : up;
    if (scale.has(pc(out))) out += 1;
  }
  return Math.max(key.tonic - 10, Math.min(key.tonic + 20, out));
}

/**
 * A sung line: one note a syllable from `beat` over `bars` bars, with a breath at the end.
 * `motif` seeds the line so the same kind of line (chorus line 1, …) gets the same tune.
 */
export function singLine(
  key: MelodyKey,
  syllables: readonly string[],
  beat: number,
  bars: number,
  motif: number,
  kind: string,
  last: boolean,
): MelodyNote[] {
  if (syllables.length === 0) return [];
  const random = seeded(motif);
  const length = bars * key.beatsPerBar;
  const pickup = random() < 0.35 ? 0.5 : 0;
  const room = length - pickup - Math.min(2, Math.max(1, length / 8));
  const maxNotes = Math.floor(room / 0.25);
  const words =
    syllables.length > maxNotes
      ? [...syllables.slice(0, maxNotes - 1), syllables.slice(maxNotes - 1).join('')]
      : [...syllables];
  const lengths = rhythm(words.length, room, random, key.weirdness);
  const starts: number[] = [];
  let at = beat + pickup;
  for (const l of lengths) {
    starts.push(at);
    at += l;
  }
  const start = pick(random, STARTS[kind] ?? STARTS.other!);
  const midis = pitches(key, starts, start, random, last ? 'tonic' : 'chord');
  return words.map((text, i) => ({ beat: starts[i]!, beats: lengths[i]!, midi: midis[i]!, text }));
}

/** A played line of about `perBar` notes a bar: a two-bar motif, repeated with a changed ending. */
export function playLine(
  key: MelodyKey,
  beat: number,
  bars: number,
  perBar: number,
  motif: number,
  kind: string,
): MelodyNote[] {
  const random = seeded(motif);
  const grid = key.beatsPerBar * 2;
  const pattern: number[] = [];
  for (let slot = 0; slot < grid * 2; slot += 1) {
    const onBeat = slot % 2 === 0 ? 1 : 0.45;
    if (slot === 0 || random() < (perBar / grid) * onBeat * 1.4) pattern.push(slot / 2);
  }
  const starts: number[] = [];
  const lengths: number[] = [];
  for (let bar = 0; bar < bars; bar += 2) {
    const span = Math.min(2, bars - bar) * key.beatsPerBar;
    const positions = pattern.filter((p) => p < span - 0.5);
    positions.forEach((p, i) => {
      starts.push(beat + bar * key.beatsPerBar + p);
      lengths.push(Math.max(0.5, (positions[i + 1] ?? span) - p - (i === positions.length - 1 ? 0.5 : 0)));
    });
  }
  const midis: number[] = [];
  for (let i = 0; i < starts.length; i += pattern.length) {
    const chunk = starts.slice(i, i + pattern.length);
    const phrase = seeded(motif + Math.floor(i / pattern.length / 2));
    midis.push(...pitches(key, chunk, pick(phrase, STARTS[kind] ?? STARTS.other!), phrase, 'chord'));
  }
  return starts.map((b, i) => ({ beat: b, beats: lengths[i]!, midi: midis[i]!, text: null }));
}
