/**
 * New takes of a planned song: a cover (the same melody, words and form in another style) and
 * variations from subtle (a few notes moved) to high (new tempo, key and band).
 */
import { hashOf, seeded } from '../../random.js';
import type { RestyleSpec, SongPlan, SongSpec } from './song-plan.js';
import { readStyle } from './style.js';
import { melodyPartOf, partsFor, rearrange, reflavour } from './band.js';
import { RING_OUT, secondsAt } from './grid.js';
import { compose } from './song.js';
import { chordSymbol, pc, scaleOf } from './theory.js';

const specOf = (plan: SongPlan, seed: number): SongSpec => ({
  seed,
  style: plan.style,
  styleNegative: plan.styleNegative,
  styleInfluence: plan.styleInfluence,
  weirdness: plan.weirdness,
  lyric: plan.lyric,
  voice: plan.voice,
  maxSeconds: plan.maxSeconds,
  ...(plan.exact ? { seconds: plan.duration } : {}),
});

/** A cover: the same melody, words and form in another style, at the new style's tempo (or partly the old one's). */
export function restyle(plan: SongPlan, spec: RestyleSpec): SongPlan {
  const request = {
    style: spec.style,
    negative: spec.styleNegative ?? '',
    influence: spec.styleInfluence ?? 0.5,
    weirdness: spec.weirdness ?? plan.weirdness,
  };
  const style = readStyle(request, spec.seed >>> 0);
  const keep = Math.min(1, Math.max(0, spec.keepTempo ?? 0));
  const bpm = Math.round(Math.exp(keep * Math.log(plan.bpm) + (1 - keep) * Math.log(style.bpm)));
  const grid = { bpm, firstBeat: plan.firstBeat * (plan.bpm / bpm), swing: style.swing };
  const at = (beat: number) => secondsAt(grid, beat);
  const barSeconds = (plan.beatsPerBar * 60) / bpm;
  // The cover keeps every bar: a slower tempo makes it longer than the original's limit.
  const duration = plan.exact
    ? (plan.duration * plan.bpm) / bpm
    : Math.max(0, grid.firstBeat + plan.bars * barSeconds + RING_OUT);
  const chords = plan.chords.map((chord) => {
    const quality = reflavour(chord.quality, style.harmony, pc(chord.root - plan.root) === 7);
    return {
      ...chord,
      quality,
      symbol: chordSymbol(chord.root, quality),
      start: at(chord.beat),
      duration: at(chord.beat + chord.beats) - at(chord.beat),
    };
  });
  const parts = partsFor(style.parts);
  const melody = plan.melody.map((note) => ({
    ...note,
    start: at(note.beat),
    duration: at(note.beat + note.beats) - at(note.beat),
  }));
  const melodyPart = melody.some((n) => n.text === null) ? melodyPartOf(parts) : null;
  const sections = plan.sections.map((section) => ({
    ...section,
    start: Math.max(0, at(section.bar * plan.beatsPerBar)),
    end: Math.min(duration, at((section.bar + section.bars) * plan.beatsPerBar)),
    chords: chords
      .filter((c) => c.beat >= section.bar * plan.beatsPerBar)
      .slice(0, section.bars)
      .map((c) => c.symbol),
  }));
  if (sections.length > 0) sections[sections.length - 1]!.end = duration;
  // The cover keeps the original's meter; the groove follows it.
  let drums = style.drums;
  if (drums && (plan.beatsPerBar === 3) !== (drums.pattern === 'waltz')) {
    drums = { pattern: plan.beatsPerBar === 3 ? 'waltz' : 'ballad', kit: drums.kit };
  }
  return {
    ...plan,
    seed: spec.seed >>> 0,
    style: request.style,
    styleNegative: request.negative,
    styleInfluence: request.influence,
    weirdness: request.weirdness,
    maxSeconds: Math.max(plan.maxSeconds, duration),
    genre: style.genre,
    harmony: style.harmony,
    brightness: style.brightness,
    bpm,
    swing: style.swing,
    firstBeat: grid.firstBeat,
    instruments: parts.map((p) => p.name),
    parts,
    melodyPart,
    drums,
    sections,
    chords: chords.filter((c) => c.start < duration),
    melody: melody.filter((n) => n.start < duration),
    fadeOut: Math.min(duration, (plan.fadeOut * plan.bpm) / bpm),
    duration,
  };
}

/**
 * A second take. `subtle`: the same song with a few melody notes moved a step; `normal`: the
 * same key and tempo with a new arrangement and melody; `high`: a new tempo, key and
 * arrangement from the same style words.
 */
export function varyPlan(plan: SongPlan, amount: 'subtle' | 'normal' | 'high', seed: number): SongPlan {
  const random = seeded(hashOf(`vary:${amount}`, seed));
  if (amount === 'subtle') {
    const scale = scaleOf(plan.root, plan.mode);
    const melody = plan.melody.map((note, i) => {
      const next = plan.melody[i + 1];
      const endsPhrase = !next || next.beat - (note.beat + note.beats) > 0.4;
      if (endsPhrase || random() > 0.15) return note;
      const up = random() < 0.5;
      let midi = note.midi + (up ? 1 : -1);
      while (!scale.includes(pc(midi))) midi += up ? 1 : -1;
      return { ...note, midi };
    });
    return { ...plan, seed: seed >>> 0, melody };
  }
  if (amount === 'normal') {
    return compose(specOf(plan, seed), {
      bpm: plan.bpm,
      root: plan.root,
      mode: plan.mode,
      beatsPerBar: plan.beatsPerBar,
      swing: plan.swing,
      firstBeat: plan.firstBeat,
      genre: plan.genre,
      harmony: plan.harmony,
      brightness: plan.brightness,
      drums: plan.drums,
      voice: plan.voice,
      parts: rearrange(plan.parts, random),
    });
  }
  const again = compose(specOf(plan, seed), { voice: plan.voice });
  const keyStated = /\b[a-g](#|b)?\s*(major|minor)\b/i.test(plan.style);
  if (again.bpm !== plan.bpm && (again.root !== plan.root || keyStated)) return again;
  const bpm = again.bpm === plan.bpm ? Math.round(plan.bpm * (random() < 0.5 ? 0.9 : 1.1)) : again.bpm;
  const root = again.root === plan.root && !keyStated ? (plan.root + 5) % 12 : again.root;
  return compose(specOf(plan, seed), {
    voice: plan.voice,
    bpm,
    root,
    parts: again.parts,
    drums: again.drums,
  });
}
