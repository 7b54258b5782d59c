/**
 * Single-cycle wavetables, built once by inverse FFT: band-limited saw and square waves (one
 * table per octave, so no harmonic folds back past the Nyquist frequency) and fixed harmonic
 * mixes. Oscillators read them with a phase accumulator instead of calling Math.sin per sample.
 */
import { fft } from '../../signal/index.js';
import { SAMPLE_RATE } from '../dsp/pcm.js';

export const TABLE_SIZE = 2048;
const LOWEST = 20;
const OCTAVES = 11;

/** A table of TABLE_SIZE + 1 samples (the last repeats the first, for interpolation), peak 1. */
function build(amplitude: (harmonic: number) => number, harmonics: number): Float32Array {
  const re = new Float64Array(TABLE_SIZE);
  const im = new Float64Array(TABLE_SIZE);
  for (let k = 1; k <= Math.min(harmonics, TABLE_SIZE / 2 - 1); k += 1) {
    // Sine phases: im of bin k is -a/2 and of bin N-k is +a/2 for a·sin.
    const a = amplitude(k);
    im[k] = -a / 2;
    im[TABLE_SIZE - k] = a / 2;
  }
  fft(re, im, true);
  let peak = 0;
  for (let i = 0; i < TABLE_SIZE; i += 1) peak = Math.max(peak, Math.abs(re[i]!));
  const table = new Float32Array(TABLE_SIZE + 1);
  for (let i = 0; i < TABLE_SIZE; i += 1) table[i] = re[i]! / Math.max(1e-12, peak);
  table[TABLE_SIZE] = table[0]!;
  return table;
}

export type Shape = 'saw' | 'square';
const shapes = new Map<string, Float32Array[]>();

/** The table for `shape` at `hz`: as many harmonics as stay below 0.45 of the sample rate it plays at. */
export function tableFor(shape: Shape, hz: number, rate = SAMPLE_RATE): Float32Array {
  const key = `${shape}@${rate}`;
  let set = shapes.get(key);
  if (!set) {
    set = Array.from({ length: OCTAVES }, (_, octave) => {
      const top = LOWEST * 2 ** (octave + 1);
      const harmonics = Math.max(1, Math.floor((0.45 * rate) / top));
      return build((k) => (shape === 'saw' ? 1 / k : k % 2 === 1 ? 1 / k : 0), harmonics);
    });
    shapes.set(key, set);
  }
  const octave = Math.max(0, Math.min(OCTAVES - 1, Math.floor(Math.log2(Math.max(hz, LOWEST) / LOWEST))));
  return set[octave]!;
}

const mixes = new Map<string, Float32Array>();

/** A fixed mix of the first harmonics (amplitudes[0] is the fundamental): organs, flutes, sines. */
export function harmonicTable(amplitudes: readonly number[]): Float32Array {
  const key = amplitudes.join(',');
  let table = mixes.get(key);
  if (!table) {
    table = build((k) => amplitudes[k - 1] ?? 0, amplitudes.length);
    mixes.set(key, table);
  }
  return table;
}

export const SINE = harmonicTable([1]);
