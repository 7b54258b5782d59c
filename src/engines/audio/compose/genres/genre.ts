/**
 * What a genre is to the planner: its tempo range, swing, modes, harmony, groove and band, the
 * defaults every other style word adjusts.
 */
import type { Harmony, Mode } from '../theory.js';
import type { DrumPattern, InstrumentName, Kit, PartChoice, Role } from '../vocabulary.js';

/** A part of a genre's band: an instrument's variant and the role it plays. */
export const part = (name: InstrumentName, variant: string, role: Role): PartChoice => ({
  name,
  variant,
  role,
});

export interface Genre {
  name: string;
  words: string[];
  tempo: [number, number];
  swing: number;
  modes: Mode[];
  harmony: Harmony;
  drums: { pattern: DrumPattern; kit: Kit } | null;
  core: PartChoice[];
  extra: PartChoice[];
  brightness: number;
}
