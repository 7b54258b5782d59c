/**
 * The tempo of a song and where its beats fall, for matching two songs in a mashup: the
 * periodicity of an onset-strength envelope (spectral flux), with a preference for the tempos
 * songs are usually felt at so that a beat is not mistaken for half or twice itself.
 */
import { eachSpectrum } from './key.js';
import { mono, type Pcm } from '../dsp/pcm.js';

export interface OnsetEnvelope {
  /** How sharply the spectrum rises at each frame: peaks where notes and drums start. */
  strength: Float32Array;
  /** Frames per second. */
  frameRate: number;
  /** The time of frame 0, in seconds; frame f is at offset + f / frameRate. */
  offset: number;
}

const ONSET_FRAME = 1024;
const ONSET_HOP_SECONDS = 0.01;
/** The flux is taken over log magnitudes, so a quiet hi-hat counts next to a loud kick. */
const COMPRESSION = 100;
/** A moving average this long is taken away, so sustained noise does not read as onsets. */
const LOCAL_MEAN_SECONDS = 0.3;

/** The onset-strength envelope of `pcm`: spectral flux over log magnitudes, frames 10 ms apart. */
export function onsetEnvelope(pcm: Pcm): OnsetEnvelope {
  const hop = Math.round(ONSET_HOP_SECONDS * pcm.rate);
  const samples = mono(pcm);
  const previous = new Float64Array(ONSET_FRAME / 2 + 1);
  const flux = new Float32Array(Math.ceil(samples.length / hop));
  eachSpectrum(samples, ONSET_FRAME, hop, (magnitudes, frame) => {
    let rise = 0;
    for (let k = 0; k < magnitudes.length; k += 1) {
      const level = Math.log1p((COMPRESSION * magnitudes[k]!) / ONSET_FRAME);
      if (frame > 0 && level > previous[k]!) rise += level - previous[k]!;
      previous[k] = level;
    }
    flux[frame] = rise;
  });
  const frameRate = pcm.rate / hop;
  const half = Math.max(1, Math.round((LOCAL_MEAN_SECONDS * frameRate) / 2));
  const strength = new Float32Array(flux.length);
  let sum = 0;
  let from = 0;
  let to = 0;
  for (let f = 0; f < flux.length; f += 1) {
    while (to < Math.min(flux.length, f + half + 1)) sum += flux[to++]!;
    while (from < f - half) sum -= flux[from++]!;
    strength[f] = Math.max(0, flux[f]! - sum / (to - from));
  }
  // An onset shows most in the frame whose window it reaches the middle of.
  return { strength, frameRate, offset: ONSET_FRAME / 2 / pcm.rate };
}

export interface Tempo {
  bpm: number;
  /** The normalised autocorrelation of the onsets at one beat, 0 to 1: how steady the pulse is. */
  confidence: number;
  /** The time of the first beat, in seconds. */
  firstBeat: number;
}

const SLOWEST_BPM = 60;
const FASTEST_BPM = 180;
const BPM_STEP = 0.05;
/** Listeners tap most songs near this tempo; the preference halves about an octave away. */
const PREFERRED_BPM = 115;
const PREFERENCE_OCTAVES = 0.8;
/**
 * A tempo is heard in the onsets one beat apart, two beats apart, and so on over four seconds.
 * A fixed span rather than a fixed count of beats: slow candidates would otherwise reach further
 * and collect the bar-long repetitions that all tempos share.
 */
const COMB_SECONDS = 4;

/** `values` at a fractional index, linearly interpolated. */
function at(values: Float64Array | Float32Array, index: number): number {
  const i = Math.floor(index);
  const frac = index - i;
  return (values[i] ?? 0) * (1 - frac) + (values[i + 1] ?? 0) * frac;
}

/**
 * The tempo of `pcm` in beats per minute (60 to 180), how clear it is, and where the first beat
 * falls. Every candidate tempo, in steps of 0.05 BPM, is scored by the onsets' mean
 * autocorrelation at its multiples of a beat (which pins the period down to a fraction of a
 * frame), weighed by a preference for tempos near 115 BPM against half- and double-time readings.
 */
export function estimateTempo(pcm: Pcm): Tempo {
  const { strength, frameRate, offset } = onsetEnvelope(pcm);
  const longest = Math.ceil(COMB_SECONDS * frameRate) + 2;
  const lags = Math.min(longest, strength.length);
  const correlation = new Float64Array(lags);
  for (let lag = 0; lag < lags; lag += 1) {
    let sum = 0;
    for (let i = 0; i + lag < strength.length; i += 1) sum += strength[i]! * strength[i + lag]!;
    // Per overlapping pair, so long lags are not penalised for overlapping less.
    correlation[lag] = sum / (strength.length - lag);
  }
  const energy = correlation[0] ?? 0;
  if (energy === 0) return { bpm: PREFERRED_BPM, confidence: 0, firstBeat: 0 };
  let best = { bpm: PREFERRED_BPM, score: -Infinity };
  for (let bpm = SLOWEST_BPM; bpm <= FASTEST_BPM; bpm += BPM_STEP) {
    const period = (60 / bpm) * frameRate;
    const beats = Math.max(1, Math.floor((COMB_SECONDS * bpm) / 60));
    let sum = 0;
    for (let k = 1; k <= beats; k += 1) sum += at(correlation, k * period);
    const preference = Math.exp(-0.5 * (Math.log2(bpm / PREFERRED_BPM) / PREFERENCE_OCTAVES) ** 2);
    const score = (sum / beats) * preference;
    if (score > best.score) best = { bpm, score };
  }
  const period = (60 / best.bpm) * frameRate;
  const confidence = Math.min(1, Math.max(0, at(correlation, period) / energy));
  // The beat phase: where, within one period, a grid of beats collects the most onset strength.
  let bestPhase = 0;
  let bestSum = -Infinity;
  for (let phase = 0; phase < period; phase += 0.25) {
    let sum = 0;
    for (let t = phase; t < strength.length; t += period) sum += at(strength, t);
    if (sum > bestSum) {
      bestSum = sum;
      bestPhase = phase;
    }
  }
  return { bpm: Math.round(best.bpm * 100) / 100, confidence, firstBeat: offset + bestPhase / frameRate };
}
