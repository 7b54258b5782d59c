/**
 * Planning a song before a sample is made: the plan for a spec, or for a part of a song that
 * goes on from a base plan on its grid. Everything follows from the spec and its seed, so the
 * same spec always gives the same plan. This is where the rest of the engine reaches composition.
 */
import { compose } from './song.js';
import type { SongPlan, SongSpec } from './song-plan.js';

export type { RestyleSpec, SongPlan, SongSpec } from './song-plan.js';
export { restyle, varyPlan } from './takes.js';
export { secondsAt } from './grid.js';

/** The plan for a spec; with `base`, a part of that song starting `at` seconds into it, on its grid. */
export function planSong(spec: SongSpec): SongPlan {
  const base = spec.base;
  if (!base) return compose(spec, {});
  const barSeconds = (base.beatsPerBar * 60) / base.bpm;
  // The base's last bar line at or before `at`, as seen from the new part's start.
  const offset = base.firstBeat - (spec.at ?? 0);
  return compose(spec, {
    bpm: base.bpm,
    root: base.root,
    mode: base.mode,
    beatsPerBar: base.beatsPerBar,
    swing: base.swing,
    firstBeat: offset - barSeconds * Math.ceil(offset / barSeconds - 1e-9),
    genre: base.genre,
    harmony: base.harmony,
    brightness: base.brightness,
    parts: base.parts,
    drums: base.drums,
    voice: base.voice,
    baseChords: { chords: base.chords, at: spec.at ?? 0 },
  });
}
