/**
 * The key of a song, for matching two songs in a mashup: a chroma (how much of each pitch class
 * sounds) correlated with the Krumhansl-Kessler key profiles. The short-time spectrum it reads is
 * the one the tempo analysis reads too.
 */
import { fft, hann } from '../../signal/index.js';
import { mono, type Pcm } from '../dsp/pcm.js';

/**
 * Calls `visit` with the magnitude spectrum (size / 2 + 1 bins) of each Hann-windowed frame of
 * `samples`, frame f covering [f * hop, f * hop + size), zero past the end. The buffer passed is
 * reused from frame to frame, so a long song costs no more memory than one frame.
 */
export function eachSpectrum(
  samples: Float32Array,
  size: number,
  hop: number,
  visit: (magnitudes: Float64Array, frame: number) => void,
): void {
  const window = hann(size);
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  const magnitudes = new Float64Array(size / 2 + 1);
  const count = Math.ceil(samples.length / hop);
  for (let frame = 0; frame < count; frame += 1) {
    const start = frame * hop;
    const available = Math.min(size, samples.length - start);
    for (let i = 0; i < available; i += 1) re[i] = samples[start + i]! * window[i]!;
    re.fill(0, available);
    im.fill(0);
    fft(re, im);
    for (let k = 0; k < magnitudes.length; k += 1) magnitudes[k] = Math.hypot(re[k]!, im[k]!);
    visit(magnitudes, frame);
  }
}

export const PITCH_CLASSES = ['C', 'C#', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'Ab', 'A', 'Bb', 'B'] as const;

/** Frames of about 190 ms: fine enough in frequency to tell semitones apart down to the bass. */
const CHROMA_FRAME_SECONDS = 0.19;
const LOWEST_HZ = 55;
const HIGHEST_HZ = 4200;
/** Peaks this far under the frame's strongest are noise or leakage, not notes. */
const PEAK_FLOOR = 0.01;

/**
 * The chroma of `pcm`: the share of each pitch class (C first) in its tonal content, summing to 1.
 * Only spectral peaks count, each at its interpolated frequency, so a window's leakage does not
 * smear one note over its neighbours; the square root of their magnitude keeps a loud melody
 * note from outweighing the harmony under it.
 */
export function chroma(pcm: Pcm): Float64Array {
  const size = 2 ** Math.round(Math.log2(CHROMA_FRAME_SECONDS * pcm.rate));
  const binHz = pcm.rate / size;
  const lowest = Math.max(2, Math.floor(LOWEST_HZ / binHz));
  const highest = Math.min(size / 2 - 1, Math.ceil(HIGHEST_HZ / binHz));
  const classes = new Float64Array(12);
  eachSpectrum(mono(pcm), size, size / 2, (magnitudes) => {
    let loudest = 0;
    for (let k = lowest; k <= highest; k += 1) loudest = Math.max(loudest, magnitudes[k]!);
    if (loudest === 0) return;
    for (let k = lowest; k <= highest; k += 1) {
      const m = magnitudes[k]!;
      if (m < loudest * PEAK_FLOOR || m <= magnitudes[k - 1]! || m < magnitudes[k + 1]!) continue;
      // Parabolic interpolation on log magnitude places the peak within a tenth of a bin.
      const left = Math.log(magnitudes[k - 1]! + 1e-12);
      const centre = Math.log(m);
      const right = Math.log(magnitudes[k + 1]! + 1e-12);
      const curvature = left - 2 * centre + right;
      const shift = curvature < 0 ? (0.5 * (left - right)) / curvature : 0;
      const midi = 69 + 12 * Math.log2(((k + shift) * binHz) / 440);
      const pitchClass = ((Math.round(midi) % 12) + 12) % 12;
      classes[pitchClass]! += Math.sqrt(m);
    }
  });
  const total = classes.reduce((sum, value) => sum + value, 0);
  if (total > 0) for (let c = 0; c < 12; c += 1) classes[c]! /= total;
  return classes;
}

/** Krumhansl and Kessler's probe-tone ratings: how well each degree fits a major or minor key. */
const MAJOR_PROFILE = [6.35, 2.23, 3.48, 2.33, 4.38, 4.09, 2.52, 5.19, 2.39, 3.66, 2.29, 2.88];
const MINOR_PROFILE = [6.33, 2.68, 3.52, 5.38, 2.6, 3.53, 2.54, 4.75, 3.98, 2.69, 3.34, 3.17];

function correlation(x: ArrayLike<number>, y: ArrayLike<number>, rotation: number): number {
  let meanX = 0;
  let meanY = 0;
  for (let i = 0; i < 12; i += 1) {
    meanX += x[i]! / 12;
    meanY += y[i]! / 12;
  }
  let xy = 0;
  let xx = 0;
  let yy = 0;
  for (let i = 0; i < 12; i += 1) {
    const dx = x[(i + rotation) % 12]! - meanX;
    const dy = y[i]! - meanY;
    xy += dx * dy;
    xx += dx * dx;
    yy += dy * dy;
  }
  return xx === 0 ? 0 : xy / Math.sqrt(xx * yy);
}

export interface Key {
  /** The tonic's pitch class: 0 = C, 1 = C#, ... 11 = B. */
  root: number;
  mode: 'major' | 'minor';
  /** The correlation of the chroma with the chosen key's profile, 0 to 1. */
  confidence: number;
}

/** The major or minor key whose profile, rotated to its tonic, best matches the chroma of `pcm`. */
export function estimateKey(pcm: Pcm): Key {
  const classes = chroma(pcm);
  let best: Key = { root: 0, mode: 'major', confidence: -Infinity };
  for (let root = 0; root < 12; root += 1) {
    for (const [mode, profile] of [
      ['major', MAJOR_PROFILE],
      ['minor', MINOR_PROFILE],
    ] as const) {
      const r = correlation(classes, profile, root);
      if (r > best.confidence) best = { root, mode, confidence: r };
    }
  }
  return { ...best, confidence: Math.max(0, best.confidence) };
}
