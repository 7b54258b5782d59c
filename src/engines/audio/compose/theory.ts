/**
 * Scales, chords and progressions: the harmonic vocabulary the planner writes with and the
 * renderer voices from. Pitch classes run 0 = C … 11 = B; MIDI 69 is A4 at 440 Hz.
 */
import { pick, type Random } from '../../random.js';

export type Mode = 'major' | 'minor' | 'dorian' | 'mixolydian';
export type Quality = 'maj' | 'min' | 'dim' | 'aug' | 'sus2' | 'sus4' | '7' | 'maj7' | 'm7' | 'm7b5' | 'add9';
/** How a genre moves between chords. */
export type Harmony = 'pop' | 'modal' | 'jazz' | 'blues' | 'classical';
export type SectionKind =
  'intro' | 'verse' | 'prechorus' | 'chorus' | 'bridge' | 'outro' | 'hook' | 'instrumental' | 'other';

const STEPS: Record<Mode, readonly number[]> = {
  major: [0, 2, 4, 5, 7, 9, 11],
  minor: [0, 2, 3, 5, 7, 8, 10],
  dorian: [0, 2, 3, 5, 7, 9, 10],
  mixolydian: [0, 2, 4, 5, 7, 9, 10],
};

const INTERVALS: Record<Quality, readonly number[]> = {
  maj: [0, 4, 7],
  min: [0, 3, 7],
  dim: [0, 3, 6],
  aug: [0, 4, 8],
  sus2: [0, 2, 7],
  sus4: [0, 5, 7],
  '7': [0, 4, 7, 10],
  maj7: [0, 4, 7, 11],
  m7: [0, 3, 7, 10],
  m7b5: [0, 3, 6, 10],
  add9: [0, 4, 7, 14],
};

const SUFFIX: Record<Quality, string> = {
  maj: '',
  min: 'm',
  dim: 'dim',
  aug: 'aug',
  sus2: 'sus2',
  sus4: 'sus4',
  '7': '7',
  maj7: 'maj7',
  m7: 'm7',
  m7b5: 'm7b5',
  add9: 'add9',
};

const NAMES = ['C', 'C#', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'Ab', 'A', 'Bb', 'B'];

export const pc = (midi: number): number => ((Math.round(midi) % 12) + 12) % 12;

export const hz = (midi: number): number => 440 * 2 ** ((midi - 69) / 12);

/** The seven pitch classes of a key, tonic first. */
export function scaleOf(root: number, mode: Mode): number[] {
  return STEPS[mode].map((step) => (root + step) % 12);
}

/** Semitones above the chord root, in stacking order (a ninth stays above the octave). */
export function chordIntervals(quality: Quality): readonly number[] {
  return INTERVALS[quality];
}

export function chordSymbol(root: number, quality: Quality): string {
  return `${NAMES[pc(root)]}${SUFFIX[quality]}`;
}

/** The chord built on a scale degree (0-based) from the key's own notes: a triad or a seventh chord. */
function diatonic(
  root: number,
  mode: Mode,
  degree: number,
  sevenths: boolean,
): { root: number; quality: Quality } {
  const steps = STEPS[mode];
  const d = ((degree % 7) + 7) % 7;
  const at = (k: number) => (steps[(d + k) % 7]! - steps[d]! + 12) % 12;
  const [third, fifth, seventh] = [at(2), at(4), at(6)];
  let quality: Quality = third === 4 ? (fifth === 8 ? 'aug' : 'maj') : fifth === 6 ? 'dim' : 'min';
  if (sevenths) {
    if (quality === 'maj') quality = seventh === 11 ? 'maj7' : '7';
    else if (quality === 'min') quality = 'm7';
    else if (quality === 'dim') quality = 'm7b5';
  }
  return { root: (root + steps[d]!) % 12, quality };
}

type Progressions = Record<'verse' | 'chorus' | 'bridge', number[][]>;

/** Degree sequences, one chord a bar; bright for major-like modes, dark for minor-like ones. */
const BRIGHT: Progressions = {
  verse: [
    [0, 5, 3, 4],
    [0, 3, 0, 4],
    [0, 4, 5, 3],
    [5, 3, 0, 4],
    [0, 2, 3, 4],
    [0, 3, 5, 4],
  ],
  chorus: [
    [0, 4, 5, 3],
    [3, 4, 0, 5],
    [0, 3, 4, 0],
    [5, 3, 0, 4],
    [3, 0, 4, 5],
  ],
  bridge: [
    [3, 4, 2, 5],
    [5, 4, 3, 4],
    [1, 4, 0, 5],
    [3, 3, 4, 4],
  ],
};

const DARK: Progressions = {
  verse: [
    [0, 5, 2, 6],
    [0, 3, 6, 2],
    [0, 6, 5, 6],
    [0, 3, 4, 0],
    [0, 5, 3, 4],
  ],
  chorus: [
    [5, 6, 0, 0],
    [5, 2, 6, 0],
    [0, 5, 2, 6],
    [3, 5, 6, 0],
  ],
  bridge: [
    [3, 6, 2, 5],
    [5, 6, 3, 4],
    [3, 4, 0, 0],
  ],
};

const JAZZ: Progressions = {
  verse: [
    [1, 4, 0, 0],
    [0, 5, 1, 4],
    [2, 5, 1, 4],
  ],
  chorus: [
    [3, 2, 1, 4],
    [0, 5, 1, 4],
    [1, 4, 0, 5],
  ],
  bridge: [
    [3, 6, 2, 5],
    [1, 4, 2, 5],
  ],
};

const MODAL: Progressions = {
  verse: [
    [0, 6, 3, 0],
    [0, 3, 6, 3],
  ],
  chorus: [
    [3, 0, 6, 0],
    [0, 6, 3, 4],
  ],
  bridge: [
    [5, 6, 3, 4],
    [3, 6, 0, 0],
  ],
};

const TWELVE_BAR = [0, 0, 0, 0, 3, 3, 0, 0, 4, 3, 0, 4];

/** A progression family for one song: the degrees each kind of section cycles through. */
export interface Progression {
  verse: number[];
  chorus: number[];
  bridge: number[];
}

export function chooseProgression(harmony: Harmony, mode: Mode, random: Random): Progression {
  if (harmony === 'blues') return { verse: TWELVE_BAR, chorus: TWELVE_BAR, bridge: [3, 3, 0, 0, 4, 3, 0, 4] };
  const dark = mode === 'minor' || mode === 'dorian';
  const table = harmony === 'jazz' ? JAZZ : harmony === 'modal' ? MODAL : dark ? DARK : BRIGHT;
  return {
    verse: pick(random, table.verse),
    chorus: pick(random, table.chorus),
    bridge: pick(random, table.bridge),
  };
}

/** The chord a harmony flavour puts on a degree: sevenths for jazz, dominant sevenths for blues. */
export function chordOn(
  harmony: Harmony,
  root: number,
  mode: Mode,
  degree: number,
  cadence: boolean,
): { root: number; quality: Quality } {
  const chord = diatonic(root, mode, degree, harmony === 'jazz');
  if (harmony === 'blues' && (degree === 0 || degree === 3 || degree === 4))
    return { root: chord.root, quality: '7' };
  // The raised leading tone of a minor-key cadence: the classical dominant.
  if (harmony === 'classical' && cadence && degree === 4 && mode === 'minor')
    return { root: chord.root, quality: 'maj' };
  return chord;
}

/** Krumhansl–Kessler key profiles, correlated with a melody's pitch-class durations. */
const MAJOR_PROFILE = [6.35, 2.23, 3.48, 2.33, 4.38, 4.09, 2.52, 5.19, 2.39, 3.66, 2.29, 2.88];
const MINOR_PROFILE = [6.33, 2.68, 3.52, 5.38, 2.6, 3.53, 2.54, 4.75, 3.98, 2.69, 3.34, 3.17];

export function keyOf(notes: readonly { midi: number; beats: number }[]): { root: number; mode: Mode } {
  const weight = new Array<number>(12).fill(0);
  for (const note of notes) weight[pc(note.midi)]! += Math.max(0.1, note.beats);
  const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const correlation = (profile: readonly number[], shift: number) => {
    const pm = mean(profile);
    const wm = mean(weight);
    let num = 0;
    let dp = 0;
    let dw = 0;
    for (let i = 0; i < 12; i += 1) {
      const p = profile[(i - shift + 12) % 12]! - pm;
      const w = weight[i]! - wm;
      num += p * w;
      dp += p * p;
      dw += w * w;
    }
    return dp * dw === 0 ? 0 : num / Math.sqrt(dp * dw);
  };
  let best = { root: 0, mode: 'major' as Mode, score: -Infinity };
  for (let root = 0; root < 12; root += 1) {
    for (const [mode, profile] of [
      ['major', MAJOR_PROFILE],
      ['minor', MINOR_PROFILE],
    ] as const) {
      const score = correlation(profile, root);
      if (score > best.score) best = { root, mode, score };
    }
  }
  return { root: best.root, mode: best.mode };
}
