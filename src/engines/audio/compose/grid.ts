/**
 * The beat grid every part of a song is placed on: bars of beats from a first bar line, at the
 * plan's tempo, with swing moving the off-beat eighths late.
 */

/** Seconds after the final bar for the last chord to ring out. */
export const RING_OUT = 1.5;

/** The time of a beat (counted from the first bar line), in seconds. */
export function secondsAt(grid: { bpm: number; firstBeat: number; swing: number }, beat: number): number {
  const whole = Math.floor(beat);
  const f = beat - whole;
  const d = grid.swing / 6;
  const swung = f < 0.5 ? f * (1 + 2 * d) : 0.5 + d + (f - 0.5) * (1 - 2 * d);
  return grid.firstBeat + ((whole + swung) * 60) / grid.bpm;
}
