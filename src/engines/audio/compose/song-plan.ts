/**
 * A song planned before a sample is made: tempo, key, beat grid, form, chords, melody and band,
 * as plain data that is stored, re-rendered, restyled (a cover) or varied (a second take); and
 * the specs a plan is made from. Composition fills these in; plan.ts is where the rest of the
 * engine asks for them.
 */
import type { MelodyNote } from './melody.js';
import type { Harmony, Mode, Quality, SectionKind } from './theory.js';
import type { DrumPattern, InstrumentName, Kit, Role } from './vocabulary.js';
import type { Voice } from '../voice/singer.js';

export interface SongSpec {
  seed: number;
  style: string;
  styleNegative?: string;
  styleInfluence?: number;
  weirdness?: number;
  /** With section markers; absent, empty or `instrumental` gives a form without words. */
  lyric?: string;
  instrumental?: boolean;
  voice: Voice;
  /** The form is shortened (sections dropped or cut at a bar, then an ending) to fit. */
  maxSeconds: number;
  /** Exactly this long: filled or cut at bars, the last bar fading. */
  seconds?: number;
  /** Tempo, key, mode, meter, band, drums, voice and beat grid come from this plan. */
  base?: SongPlan;
  /** With `base`: where in the base song this part begins, in seconds. */
  at?: number;
  /** A melody to sing or play instead of composing one; beats count from the first bar line. */
  melody?: { beat: number; beats: number; midi: number }[];
}

export interface PlanNote extends MelodyNote {
  start: number;
  duration: number;
}

export interface PlanChord {
  beat: number;
  beats: number;
  start: number;
  duration: number;
  root: number;
  quality: Quality;
  symbol: string;
}

export interface PlanSection {
  name: string;
  kind: SectionKind;
  start: number;
  end: number;
  /** First bar of the section on the plan's grid. */
  bar: number;
  bars: number;
  chords: string[];
  lines: string[];
  energy: number;
}

export interface PlanPart {
  name: InstrumentName;
  variant: string;
  role: Role;
  /** -1 (left) … 1 (right). */
  pan: number;
  /** Linear level relative to the other parts. */
  gain: number;
  /** The part plays in sections whose energy reaches this. */
  enter: number;
}

export interface SongPlan {
  version: 1;
  seed: number;
  style: string;
  styleNegative: string;
  styleInfluence: number;
  weirdness: number;
  lyric: string;
  maxSeconds: number;
  /** Whether the length was asked for exactly (a window), rather than found from the form. */
  exact: boolean;
  genre: string;
  harmony: Harmony;
  brightness: number;
  bpm: number;
  root: number;
  mode: Mode;
  beatsPerBar: number;
  /** 0..1: how late the off-beat eighth falls (1 is a triplet feel). */
  swing: number;
  /** When bar 0 begins, in seconds; below 0 when the part starts inside a bar of its base. */
  firstBeat: number;
  bars: number;
  instruments: string[];
  parts: PlanPart[];
  /** The part that plays the melody notes that are not sung. */
  melodyPart: string | null;
  drums: { pattern: DrumPattern; kit: Kit } | null;
  voice: Voice;
  sections: PlanSection[];
  chords: PlanChord[];
  melody: PlanNote[];
  /** Whether the last bar is a final chord left to ring. */
  ending: boolean;
  fadeOut: number;
  duration: number;
}

export interface RestyleSpec {
  seed: number;
  style: string;
  styleNegative?: string;
  styleInfluence?: number;
  weirdness?: number;
  /** 0..1: how much of the old tempo to keep (geometrically between the old and the new style's). */
  keepTempo?: number;
}
