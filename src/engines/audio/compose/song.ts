/**
 * The planner: from a spec (and what an earlier plan hands down) to a complete plan. It reads the
 * style, lays out the form from the lyric, fits it to the length asked for, writes chords and
 * melody, deals the band and puts every bar, section, chord and note at its time.
 */
import { hashOf, seeded } from '../../random.js';
import { parseLyrics } from './lyrics.js';
import type { PlanChord, PlanNote, PlanPart, PlanSection, SongPlan, SongSpec } from './song-plan.js';
import type { Voice } from '../voice/singer.js';
import { readStyle, type StyleProfile } from './style.js';
import { melodyPartOf, partsFor } from './band.js';
import { writeChords, type BarChord, type Frame } from './chords.js';
import { energyOf, fill, instrumentalForm, layoutSections, shorten, type FormSection } from './form.js';
import { RING_OUT, secondsAt } from './grid.js';
import type { MelodyNote } from './melody.js';
import { chordSymbol, keyOf, type Harmony, type Mode } from './theory.js';
import { melodyForm, writeMelody } from './tune.js';

/** What a new plan takes over unchanged from an earlier one. */
export interface Kept {
  bpm?: number;
  root?: number;
  mode?: Mode;
  beatsPerBar?: number;
  swing?: number;
  firstBeat?: number;
  genre?: string;
  harmony?: Harmony;
  brightness?: number;
  parts?: PlanPart[];
  drums?: SongPlan['drums'];
  voice?: Voice;
  /** Chords of a base song, and where this part begins in it. */
  baseChords?: { chords: PlanChord[]; at: number };
}

/** A plan for `spec`, with whatever `kept` names taken as given instead of chosen. */
export function compose(spec: SongSpec, kept: Kept): SongPlan {
  const seed = spec.seed >>> 0;
  const request = {
    style: spec.style,
    negative: spec.styleNegative ?? '',
    influence: spec.styleInfluence ?? 0.5,
    weirdness: spec.weirdness ?? 0,
  };
  const style = readStyle(request, seed);
  const random = seeded(hashOf('form', seed));
  const voice = kept.voice ?? spec.voice;
  const bpm = kept.bpm ?? style.bpm;
  const beatsPerBar = kept.beatsPerBar ?? style.beatsPerBar;
  const firstBeat = kept.firstBeat ?? 0;
  const barSeconds = (beatsPerBar * 60) / bpm;
  const given = spec.melody && spec.melody.length > 0 ? spec.melody : null;
  const keyFromMelody =
    given && kept.root === undefined && !/\b(major|minor)\b/i.test(spec.style) ? keyOf(given) : null;
  const root = kept.root ?? keyFromMelody?.root ?? style.root;
  const mode = kept.mode ?? keyFromMelody?.mode ?? style.mode;

  const lyric = spec.instrumental || !style.vocals ? [] : parseLyrics(spec.lyric ?? '');
  const sung = lyric.some((section) => section.lines.length > 0);
  let form: FormSection[] = sung
    ? layoutSections(lyric, beatsPerBar, style.energy)
    : instrumentalForm(random, style.energy);
  if (given) form = melodyForm(form, given, beatsPerBar, style.energy, sung);
  if (sung && !spec.base && !given && form[0]?.kind !== 'intro') {
    form.unshift({
      name: 'Intro',
      kind: 'intro',
      bars: bpm < 90 ? 2 : 4,
      lines: [],
      energy: energyOf('intro', style.energy),
    });
  }
  if (sung && !given && spec.seconds === undefined && form[form.length - 1]?.kind !== 'outro') {
    form.push({ name: 'Outro', kind: 'outro', bars: 2, lines: [], energy: energyOf('outro', style.energy) });
  }
  if (firstBeat < -1e-9 && form[0]) {
    const first = form[0];
    form[0] = {
      ...first,
      bars: first.bars + 1,
      lines: first.lines.map((line) => ({ ...line, bar: line.bar + 1 })),
    };
  }

  let duration: number;
  let bars: number;
  const exact = spec.seconds !== undefined;
  if (exact) {
    duration = Math.max(0, spec.seconds!);
    bars = Math.max(1, Math.ceil((duration - firstBeat) / barSeconds - 1e-9));
    form = fill(form, bars);
  } else {
    const room = Math.floor((spec.maxSeconds - RING_OUT - firstBeat) / barSeconds + 1e-9) - 1;
    form = shorten(form, Math.max(1, room));
    bars = form.reduce((sum, s) => sum + s.bars, 0) + 1;
    duration = Math.min(spec.maxSeconds, firstBeat + bars * barSeconds + RING_OUT);
  }

  const frame = {
    bpm,
    beatsPerBar,
    firstBeat,
    swing: kept.swing ?? style.swing,
    root,
    mode,
    harmony: kept.harmony ?? style.harmony,
    weirdness: request.weirdness,
  };
  const chords = writeChords(frame, form, bars, random, kept.baseChords, !exact);
  const parts = kept.parts ?? partsFor(style.parts);
  const melody = writeMelody(frame, form, chords, voice, sung, seed, given, parts);
  const melodyPart = melody.some((n) => n.text === null) ? melodyPartOf(parts) : null;

  return assemble({
    seed,
    request,
    lyric: spec.lyric ?? '',
    maxSeconds: spec.maxSeconds,
    exact,
    style,
    kept,
    frame,
    form,
    bars,
    chords,
    melody,
    parts,
    melodyPart,
    voice,
    duration,
  });
}

interface Assembly {
  seed: number;
  request: { style: string; negative: string; influence: number; weirdness: number };
  lyric: string;
  maxSeconds: number;
  exact: boolean;
  style: StyleProfile;
  kept: Kept;
  frame: Frame;
  form: FormSection[];
  bars: number;
  chords: BarChord[];
  melody: MelodyNote[];
  parts: PlanPart[];
  melodyPart: string | null;
  voice: Voice;
  duration: number;
}

/** Times in seconds for every bar, section, chord and note, cut to the song's length. */
function assemble(a: Assembly): SongPlan {
  const { frame, duration } = a;
  const at = (beat: number) => secondsAt(frame, beat);
  const bar = (index: number) => at(index * frame.beatsPerBar);
  const chords: PlanChord[] = a.chords
    .map((chord, i) => ({
      beat: i * frame.beatsPerBar,
      beats: frame.beatsPerBar,
      start: bar(i),
      duration: bar(i + 1) - bar(i),
      root: chord.root,
      quality: chord.quality,
      symbol: chordSymbol(chord.root, chord.quality),
    }))
    .filter((c) => c.start < duration);
  const sections: PlanSection[] = [];
  let first = 0;
  a.form.forEach((section, i) => {
    const bars = i === a.form.length - 1 ? a.bars - first : section.bars;
    const start = Math.max(0, bar(first));
    if (start < duration) {
      sections.push({
        name: section.name,
        kind: section.kind,
        start,
        end: Math.min(duration, bar(first + bars)),
        bar: first,
        bars,
        chords: a.chords.slice(first, first + bars).map((c) => chordSymbol(c.root, c.quality)),
        lines: section.lines.map((line) => line.text),
        energy: section.energy,
      });
    }
    first += bars;
  });
  const last = sections[sections.length - 1];
  if (last) last.end = duration;
  const melody: PlanNote[] = a.melody
    .map((note) => {
      const start = at(note.beat);
      return { ...note, start, duration: Math.min(at(note.beat + note.beats), duration) - start };
    })
    .filter((note) => note.start >= 0 && note.duration > 0.02);
  const ending = !a.exact;
  // A window fades over its last bar; a last bar cut to a sliver fades with the one before it.
  const barSeconds = (frame.beatsPerBar * 60) / frame.bpm;
  let lastBar = Math.floor((duration - frame.firstBeat) / barSeconds - 1e-9);
  if (duration - bar(lastBar) < 0.25 * barSeconds && lastBar > 0) lastBar -= 1;
  const fadeOut = Math.min(duration, ending ? RING_OUT + 0.5 : duration - Math.max(0, bar(lastBar)));
  const style = a.style;
  return {
    version: 1,
    seed: a.seed,
    style: a.request.style,
    styleNegative: a.request.negative,
    styleInfluence: a.request.influence,
    weirdness: a.request.weirdness,
    lyric: a.lyric,
    maxSeconds: a.maxSeconds,
    exact: a.exact,
    genre: a.kept.genre ?? style.genre,
    harmony: frame.harmony,
    brightness: a.kept.brightness ?? style.brightness,
    bpm: frame.bpm,
    root: frame.root,
    mode: frame.mode,
    beatsPerBar: frame.beatsPerBar,
    swing: frame.swing,
    firstBeat: frame.firstBeat,
    bars: a.bars,
    instruments: a.parts.map((p) => p.name),
    parts: a.parts,
    melodyPart: a.melodyPart,
    drums: a.kept.drums !== undefined ? a.kept.drums : style.drums,
    voice: a.voice,
    sections,
    chords,
    melody,
    ending,
    fadeOut,
    duration,
  };
}
