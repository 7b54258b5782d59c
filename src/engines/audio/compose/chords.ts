/**
 * The chords of a song, one a bar: each section cycles the progression chosen for its kind,
 * the song ends on the tonic, weirdness swaps in chords from outside the key, and a part
 * planned inside a base song takes the base's own chords where it overlaps them.
 */
import type { Random } from '../../random.js';
import type { PlanChord } from './song-plan.js';
import type { FormSection } from './form.js';
import { chooseProgression, chordOn, scaleOf, type Harmony, type Mode, type Quality } from './theory.js';

/** The musical frame a song is written in. */
export interface Frame {
  bpm: number;
  beatsPerBar: number;
  firstBeat: number;
  swing: number;
  root: number;
  mode: Mode;
  harmony: Harmony;
  weirdness: number;
}

export type BarChord = { root: number; quality: Quality };

/** One chord a bar: each section cycles its progression; weirdness swaps in chords from outside the key. */
export function writeChords(
  frame: Frame,
  form: FormSection[],
  bars: number,
  random: Random,
  base: { chords: readonly PlanChord[]; at: number } | undefined,
  ending: boolean,
): BarChord[] {
  const progression = chooseProgression(frame.harmony, frame.mode, random);
  const scale = new Set(scaleOf(frame.root, frame.mode));
  const outside = Array.from({ length: 12 }, (_, i) => i).filter((p) => !scale.has(p));
  const out: BarChord[] = [];
  for (const section of form) {
    const degrees =
      section.kind === 'chorus' || section.kind === 'hook'
        ? progression.chorus
        : section.kind === 'bridge' || section.kind === 'prechorus'
          ? progression.bridge
          : progression.verse;
    for (let i = 0; i < section.bars; i += 1) {
      const degree = degrees[i % degrees.length]!;
      let chord = chordOn(
        frame.harmony,
        frame.root,
        frame.mode,
        degree,
        i % degrees.length === degrees.length - 1,
      );
      if (random() < frame.weirdness * 0.7) {
        const qualities: Quality[] = ['maj', 'min', '7', 'aug', 'dim'];
        chord = {
          root: outside[Math.floor(random() * outside.length)]!,
          quality: qualities[Math.floor(random() * 5)]!,
        };
      }
      out.push(chord);
    }
  }
  while (out.length < bars) out.push(chordOn(frame.harmony, frame.root, frame.mode, 0, true));
  if (ending) out[bars - 1] = chordOn(frame.harmony, frame.root, frame.mode, 0, true);
  if (base) {
    const barSeconds = (frame.beatsPerBar * 60) / frame.bpm;
    out.forEach((_, bar) => {
      const t = frame.firstBeat + bar * barSeconds + base.at + 0.01;
      const under = base.chords.find((c) => c.start <= t && t < c.start + c.duration);
      if (under) out[bar] = { root: under.root, quality: under.quality };
    });
  }
  return out.slice(0, bars);
}
